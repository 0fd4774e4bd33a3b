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

# A page and the rulesets.
call GET / && [ "$status" = 200 ] && grep -q '<script src="/app.js">' "$tmp/body" || fail "GET / did not serve the page"
call GET /api/rulesets && [ "$status" = 200 ] && grep -q '"lost-cities/three-player"' "$tmp/body" ||
  fail "GET /api/rulesets lists no variant: $(cut -c1-300 "$tmp/body")"

expect 404 "no such page" GET /nothing-here
expect 404 "no game" GET /api/games/g999
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
grep -q '"labels":{"deck":"Draw pile"}' "$tmp/body" || fail "big-cards: the variant's [view] label is not in the hints"
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
grep -q '"labels":{"deck":"Draw pile"}' "$tmp/body" || fail "board-colours: no label from the variant"
echo "ok  board-colours: the variant's [view] merged over its parent's"
# The board game's event tiles are drawn by its own draw_component (rulesets/lost-cities-board/draw.lua).
new_game lost-cities-board
grep -q '"scenes":{"' "$tmp/body" && grep -q '"shape":"polygon"' "$tmp/body" || fail "lost-cities-board: its tiles have no scene"
echo "ok  lost-cities-board: the event tiles' scenes"
echo "PASS"
