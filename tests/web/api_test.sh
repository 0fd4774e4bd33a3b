#!/usr/bin/env bash
# api_test.sh HOUSERULES — the JSON API of `houserules serve` refuses bad requests with a 4xx status and a JSON
# {"error": ...} naming the problem, and a refused action leaves the game unchanged (docs/serve.md).
set -uo pipefail
hr=$1
command -v curl > /dev/null || { echo "curl is not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
src=$(cd "$(dirname "$0")/../.." && pwd)
# The house rules of tests/fixtures/web-draw are on the search path: drawing hooks, hints from a variant.
fixtures=$src/tests/fixtures/web-draw
export HOUSERULES_PATH=$fixtures
source "$(dirname "$0")/serve_helpers.sh"
start_server "$hr" "$tmp/serve.log"
fail() { echo "FAIL: $*"; exit 1; }
# call METHOD PATH [BODY] -> "$status" and "$tmp/body"
call() {
  local args=(-s -o "$tmp/body" -w '%{http_code}' -X "$1" "$url${2#/}")
  [ $# -ge 3 ] && args+=(-H 'Content-Type: application/json' --data-binary "$3")
  status=$(curl "${args[@]}")
}
# expect STATUS MESSAGE-FRAGMENT METHOD PATH [BODY]
expect() {
  local want=$1 fragment=$2
  shift 2
  call "$@"
  [ "$status" = "$want" ] || fail "$* -> HTTP $status, expected $want: $(cat "$tmp/body")"
  grep -q '"error":' "$tmp/body" || fail "$* -> no JSON error: $(cat "$tmp/body")"
  grep -qF -- "$fragment" "$tmp/body" || fail "$* -> the error does not say '$fragment': $(cat "$tmp/body")"
  echo "ok  $want $1 $2: $(cut -c1-110 "$tmp/body")"
}

# Every answer carries the Content-Security-Policy: nothing from outside the server (docs/serve.md, "Security").
curl -s -D "$tmp/headers" -o /dev/null "$url"
grep -qi "^Content-Security-Policy: default-src 'self';.*connect-src 'self'" "$tmp/headers" ||
  fail "GET / has no Content-Security-Policy allowing only the server: $(cat "$tmp/headers")"
echo "ok  the page's Content-Security-Policy: $(grep -i '^Content-Security-Policy' "$tmp/headers" | cut -c1-100)"

# Trick "any web page can drive serve": a page of another site posts a game (text/plain needs no preflight), or a
# name rebound to 127.0.0.1 reads the API. Refused with 403 naming the header, before any route: nothing created.
port=${url#http://127.0.0.1:}
port=${port%/}
sessions() { curl -s "${url}api/start" | grep -o '"sessions":[0-9]*' | cut -d: -f2; }
before=$(sessions)
# forged HOST ORIGIN FRAGMENT: a text/plain POST /api/games with these headers gets 403 naming FRAGMENT
forged() {
  local args=(-s -o "$tmp/body" -w '%{http_code}' -X POST -H 'Content-Type: text/plain' --data-binary '{"ruleset": "lost-cities"}')
  [ -n "$1" ] && args+=(-H "Host: $1")
  [ -n "$2" ] && args+=(-H "Origin: $2")
  status=$(curl "${args[@]}" "${url}api/games")
  [ "$status" = 403 ] || fail "forged Host '$1' Origin '$2' -> HTTP $status, expected 403: $(cut -c1-200 "$tmp/body")"
  grep -q '"error":' "$tmp/body" && grep -qF -- "$3" "$tmp/body" || fail "forged Host '$1' Origin '$2': the error does not name $3: $(cat "$tmp/body")"
  echo "ok  403 Host '$1' Origin '$2': $(cut -c1-110 "$tmp/body")"
}
forged evil.example http://evil.example "header Host"
forged "127.0.0.1:$port" http://evil.example "header Origin"
forged "127.0.0.1:$port" null "header Origin"
forged "127.0.0.1:$port" "http://127.0.0.1:$((port + 1))" "header Origin"
forged "127.0.0.1" "" "header Host"
forged "localhost:$((port + 1))" "" "header Host"
status=$(curl -s -o "$tmp/body" -w '%{http_code}' -H "Host: evil.example" "${url}api/rulesets")
[ "$status" = 403 ] || fail "a rebound name read the API: GET /api/rulesets with Host: evil.example -> $status"
[ "$(sessions)" = "$before" ] || fail "a forged request created a game ($before sessions before, $(sessions) after)"
echo "ok  the forged requests created nothing ($before sessions)"
# The server's own names are accepted: localhost and [::1] with its port, with or without the page's Origin.
for h in "localhost:$port" "[::1]:$port" "127.0.0.1:$port"; do
  status=$(curl -s -o "$tmp/body" -w '%{http_code}' -H "Host: $h" -H "Origin: http://$h" -H 'Content-Type: text/plain' \
    --data-binary '{"ruleset": "lost-cities", "seed": 1}' "${url}api/games")
  [ "$status" = 201 ] || fail "Host $h with its own Origin -> $status $(cut -c1-200 "$tmp/body")"
done
echo "ok  Host localhost, [::1] and 127.0.0.1 with the server's port are served"

# A page and the rulesets.
call GET / && [ "$status" = 200 ] && grep -q '<script src="/app.js">' "$tmp/body" || fail "GET / did not serve the page"
call GET /api/rulesets && [ "$status" = 200 ] && grep -q '"lost-cities/three-player"' "$tmp/body" ||
  fail "GET /api/rulesets lists no variant: $(cut -c1-300 "$tmp/body")"

expect 404 "no such page" GET /nothing-here
expect 404 "no game" GET /api/games/g999
# Trick "a wrongly typed field gives 500": every field is typed and named, before the game is looked up.
expect 400 "field 'until_human' must be true or false, not a string" POST /api/games/g999/bot '{"until_human": "yes"}'
expect 400 "field 'until_human' must be true or false" POST /api/games/g999/bot '{"until_human": 1}'
expect 400 "unknown field 'until'" POST /api/games/g999/bot '{"until": true}'
expect 400 "request body must be a JSON object, not a list" POST /api/games/g999/bot '[1]'
expect 400 "field 'seat' must be a whole number from 1" POST /api/games/g999/undo '{"seat": "1"}'
expect 400 "field 'seat' must be a whole number from 1" POST /api/games/g999/play '{"seat": 1.5, "index": 0}'
expect 400 "field 'action' must be a string, not the number 3" POST /api/games/g999/play '{"seat": 1, "action": 3}'
expect 400 "field 'index' must be a whole number from 0" POST /api/games/g999/play '{"seat": 1, "index": -1}'
expect 400 "field 'ruleset' must be a string, not a list" POST /api/games '{"ruleset": ["lost-cities"]}'
expect 400 "field 'players' must be a list of strings, not a string" POST /api/games '{"ruleset": "lost-cities", "players": "human"}'
expect 400 "field 'players' must be a list of strings: item 2 is the number 3" POST /api/games '{"ruleset": "lost-cities", "players": ["human", 3]}'
expect 400 "field 'seed' must be a whole number from 0, not a string" POST /api/games '{"ruleset": "lost-cities", "seed": "7"}'
# Trick "a bot setting holds the server for 10 minutes": bounded, the option and its bound named.
expect 400 "option 'iterations' must be from 1 to 100000" POST /api/games '{"ruleset": "lost-cities", "players": ["human", "ismcts:iterations=0:time_ms=600000"]}'
expect 400 "option 'iterations' must be from 1 to 100000" POST /api/games '{"ruleset": "lost-cities", "players": ["human", "ismcts:iterations=100000000"]}'
expect 400 "option 'time_ms' must be from 0 to 10000" POST /api/games '{"ruleset": "lost-cities", "players": ["human", "ismcts:time_ms=600000"]}'
expect 400 "option 'time_ms' must be from 0 to 10000" POST /api/games '{"ruleset": "lost-cities", "players": ["human", "ismcts:time_ms=9223372036854775807"]}'
call POST /api/games '{"ruleset": "lost-cities", "players": ["human", "ismcts:iterations=200:time_ms=500"], "seed": 2}'
[ "$status" = 201 ] || fail "a bot setting within the bounds was refused: $status $(cut -c1-200 "$tmp/body")"
echo "ok  ismcts:iterations=200:time_ms=500 is within the bounds"
# Trick "cpp-httplib's own errors are empty": every error is JSON naming the limit or the rule.
head -c $((8 * 1024 * 1024 + 10)) /dev/zero | tr '\0' 'x' > "$tmp/huge"
status=$(curl -s -o "$tmp/body" -w '%{http_code}' -H 'Content-Type: application/json' --data-binary @"$tmp/huge" "${url}api/replays")
[ "$status" = 413 ] && grep -q '"error":"the request body is too large: the limit is 8388608 bytes' "$tmp/body" ||
  fail "a body over 8 MiB -> $status $(cut -c1-200 "$tmp/body")"
echo "ok  413 $(cat "$tmp/body")"
printf 'GARBAGE\r\n\r\n' | curl -s --max-time 5 "telnet://${url#http://}" > "$tmp/body" 2>/dev/null
grep -q '400 Bad Request' "$tmp/body" && grep -q '"error":"bad request' "$tmp/body" || fail "a request line that does not parse: $(cat "$tmp/body")"
echo "ok  400 for a request line that does not parse: $(grep -o '{.*' "$tmp/body")"
status=$(curl -s -o "$tmp/body" -w '%{http_code}' -H 'Range: bytes=x-y' "$url")
[ "$status" = 416 ] && grep -q '"error":"the requested byte range' "$tmp/body" || fail "an unsatisfiable range -> $status $(cat "$tmp/body")"
echo "ok  416 $(cat "$tmp/body")"
status=$(curl -s -o "$tmp/body" -w '%{http_code}' -H 'Content-Encoding: gzip' -H 'Content-Type: application/json' --data-binary '{}' "${url}api/games")
[ "$status" = 400 ] && grep -q '"error":"bad request: .*body' "$tmp/body" || fail "a gzip body that does not decompress -> $status $(cat "$tmp/body")"
echo "ok  400 for a gzip body that does not decompress: $(cat "$tmp/body")"
# Trick "a transcript posted as a form gets an empty 413": curl's default Content-Type, a file over 8,192 bytes.
"$hr" play lost-cities --players random,random --seed 3 --quiet --log "$tmp/form.jsonl" > /dev/null || fail "play --log"
[ "$(wc -c < "$tmp/form.jsonl")" -gt 8192 ] || fail "the transcript is not over 8,192 bytes"
status=$(curl -s -o "$tmp/body" -w '%{http_code}' --data-binary @"$tmp/form.jsonl" "${url}api/replays?name=form.jsonl")
[ "$status" = 201 ] && grep -q '"total":' "$tmp/body" || fail "a form-encoded transcript of $(wc -c < "$tmp/form.jsonl") bytes -> $status $(cut -c1-200 "$tmp/body")"
status=$(curl -s -o "$tmp/body" -w '%{http_code}' -F "file=@$tmp/form.jsonl" "${url}api/replays?name=form.jsonl")
[ "$status" = 201 ] && grep -q '"total":' "$tmp/body" || fail "a multipart transcript -> $status $(cut -c1-200 "$tmp/body")"
echo "ok  a $(wc -c < "$tmp/form.jsonl")-byte transcript posted as a form (curl --data-binary, curl -F) is replayed"

# Trick "a house rule's view makes the page fetch other sites": the colours that are not colours are dropped.
call POST /api/games "{\"ruleset\": \"$fixtures/tracker-colours.toml\", \"players\": [\"human\", \"random\"], \"seed\": 7}"
[ "$status" = 201 ] || fail "tracker-colours: $status $(cut -c1-200 "$tmp/body")"
grep -q 'evil.example' <(grep -o '"colours":{[^}]*}' "$tmp/body"; grep -o '"mark_colours":{[^}]*}' "$tmp/body") &&
  fail "tracker-colours: a URL reached the page's colours: $(grep -o '"hints":.*' "$tmp/body" | cut -c1-300)"
grep -q '"colours":{"blue":"#5b9ae0","white":"rgb(240, 240, 235)"}' "$tmp/body" || fail "tracker-colours: the real colours are not kept: $(grep -o '"hints":.*' "$tmp/body" | cut -c1-300)"
grep -qF '[view] colours.yellow = \"url(http://evil.example/yellow.png)\" is not a colour' "$tmp/body" &&
  grep -qF '[view] colours.green' "$tmp/body" && grep -qF '[view] mark_colours.river' "$tmp/body" ||
  fail "tracker-colours: no warning naming each value dropped: $(grep -o '"warnings":.*' "$tmp/body" | cut -c1-400)"
echo "ok  tracker-colours: url() and expression() dropped with a warning each, the colours kept"
# A path that is not UTF-8 (found by fuzz_http: echoing it in the error ended the server); the server lives on.
expect 404 "no such page" GET "/api/%99%99%99"
printf 'GET /api/\x99\x99 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n' | curl -s --max-time 5 "telnet://${url#http://}" > /dev/null 2>&1
call GET /api/rulesets && [ "$status" = 200 ] || fail "the server did not survive a request path that is not UTF-8"
expect 400 "not valid JSON" POST /api/games '{"ruleset": '
expect 400 "needs 'ruleset'" POST /api/games '{"players": ["human", "random"]}'
expect 400 "unknown player 'wizard'" POST /api/games '{"ruleset": "lost-cities", "players": ["human", "wizard"]}'
expect 400 "'seed' must be" POST /api/games '{"ruleset": "lost-cities", "seed": -4}'
expect 403 "ruleset folders" POST /api/games '{"ruleset": "/etc/passwd"}'
expect 403 "ruleset folders" POST /api/games '{"ruleset": "../../../../etc/hostname"}'
expect 422 "players" POST /api/games '{"ruleset": "lost-cities", "players": ["human", "random", "random", "random", "random"]}'

new_game() {  # new_game RULESET: human (seat 1) against random, seed 7 -> $id, the game in $tmp/body
  call POST /api/games "{\"ruleset\": \"$1\", \"players\": [\"human\", \"random\"], \"seed\": 7}"
  [ "$status" = 201 ] || fail "new game $1 -> $status $(cat "$tmp/body")"
  id=$(grep -o '"id":"g[0-9a-f]*"' "$tmp/body" | head -1 | cut -d'"' -f4)
  [ -n "$id" ] || fail "new game $1: no game id"
}
new_game lost-cities
call GET "/api/games/$id"
cp "$tmp/body" "$tmp/before"
expect 422 "not legal" POST "/api/games/$id/play" '{"seat": 1, "action": "play Q99"}'
expect 422 "no action number 999" POST "/api/games/$id/play" '{"seat": 1, "index": 999}'
expect 400 "'index' must be" POST "/api/games/$id/play" '{"seat": 1, "index": "two"}'
expect 409 "seat 1's turn, not seat 2's" POST "/api/games/$id/play" '{"seat": 2, "index": 0}'
expect 409 "seat 1 (a person) is to move" POST "/api/games/$id/bot" "{}"
expect 409 "nothing to undo" POST "/api/games/$id/undo" '{}'
expect 400 "seat 9 does not exist" GET "/api/games/$id?seat=9"
expect 400 "'seat' must be a whole number" GET "/api/games/$id?seat=x"
call GET "/api/games/$id"
cmp -s "$tmp/before" "$tmp/body" || fail "a refused request changed the game"
echo "ok  the refused requests left the game unchanged"

# Replays: broken transcripts and a ruleset outside the folders.
expect 400 "the first line must be the header" POST "/api/replays?name=t.jsonl" '{"type":"action","ply":1,"seat":1,"action":"x"}'
expect 400 "t.jsonl:1: not valid JSON" POST "/api/replays?name=t.jsonl" 'not json'
expect 403 "ruleset folders" POST "/api/replays?name=t.jsonl" '{"type":"header","ruleset":"/tmp","seats":2,"seed":1}'
expect 404 "no replay" GET "/api/replays/r1?at=0"

# Files: only rulesets inside the folders, and their `extends` chain too; no other file is read.
# status | what the error says | the ruleset asked for
while IFS='|' read -r want fragment ruleset; do
  expect "$want" "$fragment" POST /api/games "{\"ruleset\": \"$ruleset\"}"
done << EOF
403|ruleset folders|../../etc/passwd
403|ruleset folders|$src/rulesets/../../../etc/passwd
403|ruleset folders|$src/tests/fixtures/tiny-draw/ruleset.toml
403|outside the ruleset folders|$fixtures/escape.toml
403|outside the ruleset folders|$fixtures/escape-unread.toml
422|has no variant 'README.md'|$src/rulesets/lost-cities/README.md
422|no ruleset|$fixtures/big-cards.lua
EOF
expect 403 "ruleset folders" POST "/api/replays?name=t.jsonl" "{\"type\":\"header\",\"ruleset\":\"$src/tests/fixtures/tiny-draw\",\"seats\":2,\"seed\":1}"
# The parent outside was refused unread: a server that opened it would quote its broken TOML (SECRET-LINE).
expect 403 "web-outside/secret.toml" POST /api/games "{\"ruleset\": \"$fixtures/escape-unread.toml\"}"
grep -q "SECRET" "$tmp/body" && fail "escape-unread: the file outside the folders was read: $(cut -c1-300 "$tmp/body")"
echo "ok  a parent outside the folders is refused before it is opened"

# A house rule by path whose draw_component hook draws every card (docs/writing-rules.md, "Drawing a component").
new_game "$fixtures/big-cards.toml"
grep -q '"scenes":{"' "$tmp/body" || fail "big-cards: no scenes in the view: $(cut -c1-300 "$tmp/body")"
grep -q '"aspect":1.5' "$tmp/body" && grep -q '"shape":"text"' "$tmp/body" || fail "big-cards: the scenes lack their aspect or text"
grep -q '"draw_error"' "$tmp/body" && fail "big-cards: a drawing error: $(grep -o '"draw_error":"[^"]*"' "$tmp/body")"
# merged over lost-cities' own [view.labels]: the variant's deck label replaces the parent's, the parent's others stay
grep -q '"labels":{"deck":"Draw pile"' "$tmp/body" || fail "big-cards: the variant's [view] label is not in the hints"
grep -q '"hand\.\*":"hand"' "$tmp/body" || fail "big-cards: the parent's other [view] labels are lost"
echo "ok  big-cards: scenes drawn by the rules, the variant's hint"

# Each broken scene: the game starts and plays on, its view has no scene and a draw_error naming the rule broken.
broken() {  # broken VARIANT MESSAGE-FRAGMENT
  new_game "$fixtures/$1.toml"
  grep -qF "\"draw_error\":\"hook 'draw_component'" "$tmp/body" || fail "$1: no draw_error: $(cut -c1-300 "$tmp/body")"
  grep -qF -- "$2" "$tmp/body" || fail "$1: the draw_error does not say '$2': $(grep -o '"draw_error":"[^"]*"' "$tmp/body")"
  grep -q '"scenes"' "$tmp/body" && fail "$1: scenes despite the error"
  call GET "/api/games/$id" && cp "$tmp/body" "$tmp/before"
  call GET "/api/games/$id"
  cmp -s "$tmp/before" "$tmp/body" || fail "$1: looking at the game changed it"
  call POST "/api/games/$id/play" '{"seat": 1, "index": 0}'
  [ "$status" = 200 ] && grep -q '"ply":1' "$tmp/body" || fail "$1: the game does not play on: $status $(cut -c1-200 "$tmp/body")"
  echo "ok  $1: $(grep -o '"draw_error":"[^"]*"' "$tmp/body" | cut -c1-130)"
}
broken unknown-shape "shape 1: unknown shape 'star' (rect, circle, polygon, line or text)"
broken bad-number "shape 1 (circle): 'r' must be a number from 0 to 4, not -1"
broken too-many "returned 65 shapes; the limit is 64"
broken long-text "shape 1 (text): 'text' has 50 bytes; the limit is 40"
broken bad-colour "shape 1 (rect): 'fill' must be a colour name"
broken unknown-key "shape 1 (rect): unknown key 'onclick'"
broken fails "the drawing hook fails on purpose"
broken not-a-table "must return nil or a scene (a list of shapes), not 'a card'"

# Hints from a variant: [view] of board-colours.toml merged over lost-cities-board's (one colour changed, a label
# added, the other colours kept).
new_game "$fixtures/board-colours.toml"
grep -q '"colours":{"1":"#f2c641","2":"#123456","3":"#f4f4f2"' "$tmp/body" ||
  fail "board-colours: the hints are not merged: $(grep -o '"hints":.*' "$tmp/body" | cut -c1-200)"
grep -q '"labels":{"artifacts.\*":"artifacts","deck":"Draw pile"' "$tmp/body" || fail "board-colours: no label from the variant"
grep -q '"path\.\*":"{1} path"' "$tmp/body" || fail "board-colours: the parent's other labels are lost"
echo "ok  board-colours: the variant's [view] merged over its parent's"
# The board game's event tiles are drawn by its own draw_component (rulesets/lost-cities-board/draw.lua).
new_game lost-cities-board
grep -q '"scenes":{"' "$tmp/body" && grep -q '"shape":"polygon"' "$tmp/body" || fail "lost-cities-board: its tiles have no scene"
echo "ok  lost-cities-board: the event tiles' scenes"
# A ruleset's rules as text (issue 38): GET /api/rulesets/<id>/rules is its README.md; an id only, never a path.
for id in lost-cities lost-valley; do
  call GET "/api/rulesets/$id/rules"
  [ "$status" = 200 ] && cmp -s "$tmp/body" "$src/rulesets/$id/README.md" || fail "GET /api/rulesets/$id/rules is not its README (HTTP $status)"
  curl -s -D - -o /dev/null "${url}api/rulesets/$id/rules" | grep -i '^Content-Type: text/plain' > /dev/null || fail "the rules of $id are not text/plain"
done
echo "ok  200 GET /api/rulesets/<id>/rules: each ruleset's README.md as text"
expect 404 "no rules page for 'no-such-game'" GET /api/rulesets/no-such-game/rules
expect 404 "no rules page for 'lost-cities.toml'" GET /api/rulesets/lost-cities.toml/rules
echo "PASS"
