#!/usr/bin/env bash
# host_test.sh HOUSERULES — friends at one table over a network (docs/serve.md, "Friends at one table"), with curl:
# `serve --host 127.0.0.2 --public-url https://games.example.org` (an address other than the default, and a TLS
# reverse proxy's name):
#  1. the Host and Origin checks of issue 32 still hold: the listening address and the public URL are served, any
#     other Host or Origin gets 403 and creates nothing;
#  2. a game of two people gives each seat a secret link (printed by serve, returned to its creator only); seat 1's
#     key sees seat 1's hand only, seat 2's key seat 2's only, no key the public table (no hand at all);
#  3. each of them trying to read another seat's hand, or to play, undo or move the bots for another seat, gets 403
#     and changes nothing (the game byte for byte as before); a key not of this game is refused; the seed and the
#     transcript are withheld while the game runs; an undo may not take back another person's move (Lost Cities,
#     and Lost Valley, where that move reveals nothing and only the seat-link rule stops it);
#  4. `--private`: without a link nothing is seen.
set -uo pipefail
hr=$1
command -v curl > /dev/null || { echo "curl is not installed: skipped"; exit 77; }
command -v jq > /dev/null || { echo "jq is not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
source "$(dirname "$0")/serve_helpers.sh"
start_server "$hr" "$tmp/serve.log" --host 127.0.0.2 --public-url https://games.example.org
fail() { echo "FAIL: $*"; exit 1; }
[[ $url == http://127.0.0.2:* ]] || fail "serve --host 127.0.0.2 printed $url"
port=${url#http://127.0.0.2:}
port=${port%/}
# req KEY METHOD PATH [BODY] -> "$status" and "$tmp/body" (KEY: the X-Seat-Key, or - for none)
req() {
  local args=(-s -o "$tmp/body" -w '%{http_code}' -X "$2" "$url${3#/}")
  [ "$1" != - ] && args+=(-H "X-Seat-Key: $1")
  [ $# -ge 4 ] && args+=(-H 'Content-Type: application/json' --data-binary "$4")
  status=$(curl "${args[@]}")
}
# refused WANT FRAGMENT KEY METHOD PATH [BODY]: the answer is WANT with a JSON error saying FRAGMENT
refused() {
  local want=$1 fragment=$2
  shift 2
  req "$@"
  [ "$status" = "$want" ] || fail "$* -> HTTP $status, expected $want: $(cut -c1-200 "$tmp/body")"
  jq -e '.error' "$tmp/body" > /dev/null || fail "$* -> no JSON error: $(cut -c1-200 "$tmp/body")"
  grep -qF -- "$fragment" "$tmp/body" || fail "$* -> the error does not say '$fragment': $(cat "$tmp/body")"
  echo "ok  $want ${1:0:6} $2 $3 ${4:-}: $(cut -c1-100 "$tmp/body")"
}

# ---- 1. Host and Origin with --host and --public-url ----------------------------------------------------------
req - GET /api/start
[ "$status" = 200 ] && jq -e '.shared == true' "$tmp/body" > /dev/null || fail "GET /api/start on 127.0.0.2: $status $(cat "$tmp/body")"
sessions() { curl -s "${url}api/start" | jq .sessions; }
before=$(sessions)
# headers HOST ORIGIN -> $status of a text/plain POST /api/games with them
headers() {
  local args=(-s -o "$tmp/body" -w '%{http_code}' -X POST -H 'Content-Type: text/plain' --data-binary '{"ruleset": "lost-cities"}')
  [ -n "$1" ] && args+=(-H "Host: $1")
  [ -n "$2" ] && args+=(-H "Origin: $2")
  status=$(curl "${args[@]}" "${url}api/games")
}
while IFS='|' read -r host origin fragment; do
  headers "$host" "$origin"
  [ "$status" = 403 ] && grep -qF "$fragment" "$tmp/body" || fail "Host '$host' Origin '$origin' -> $status, expected 403 naming $fragment: $(cut -c1-200 "$tmp/body")"
  echo "ok  403 Host '$host' Origin '$origin': $(cut -c1-100 "$tmp/body")"
done << EOF2
evil.example|http://evil.example|header Host
127.0.0.2:$port|http://evil.example|header Origin
127.0.0.2:$port|null|header Origin
127.0.0.2:$((port + 1))||header Host
192.168.1.5:$port||header Host
games.example.org:8443||header Host
games.example.org|http://games.example.org|header Origin
games.example.org|https://evil.example|header Origin
127.0.0.2:$port|https://games.example.org.evil.example|header Origin
EOF2
[ "$(sessions)" = "$before" ] || fail "a refused request created a game"
for pair in "127.0.0.2:$port|http://127.0.0.2:$port" "games.example.org|https://games.example.org" "127.0.0.2:$port|"; do
  headers "${pair%%|*}" "${pair#*|}"
  [ "$status" = 201 ] || fail "Host '${pair%%|*}' Origin '${pair#*|}' -> $status $(cut -c1-200 "$tmp/body")"
done
echo "ok  the listening address and the public URL (https://games.example.org through its proxy) are served"

# ---- 2. seat links -----------------------------------------------------------------------------------------------
refused 400 "a seed cannot be chosen for a game of several people" - POST /api/games '{"ruleset": "lost-cities", "players": ["human", "human"], "seed": 7}'
req - POST /api/games '{"ruleset": "lost-cities", "players": ["human", "human"]}'
[ "$status" = 201 ] || fail "a game of two people: $status $(cat "$tmp/body")"
id=$(jq -r .id "$tmp/body")
key1=$(jq -r '.links[] | select(.seat == 1) | .key' "$tmp/body")
key2=$(jq -r '.links[] | select(.seat == 2) | .key' "$tmp/body")
[[ $key1 =~ ^[0-9a-f]{40}$ && $key2 =~ ^[0-9a-f]{40}$ && $key1 != "$key2" ]] || fail "no two 160-bit seat keys: $(jq -c .links "$tmp/body")"
jq -e '.seat == 1 and .seed == "hidden"' "$tmp/body" > /dev/null || fail "the creator does not play seat 1, or sees the seed: $(jq -c '{seat, seed}' "$tmp/body")"
for k in "$key1" "$key2"; do
  grep -qF "https://games.example.org/#game=$id&key=$k" "$tmp/serve.log" || fail "serve did not print the link with key $k: $(cat "$tmp/serve.log")"
done
echo "ok  game $id: two seat links of 160 bits, printed by serve with the public URL"
# ids of the cards of ZONE that FILE shows (known cards only)
known() { jq -r --arg z "$2" '.view.zones[] | select(.name == $z) | (.cards // [])[] | select(. != null) | .id' "$1"; }
every_id() { jq -r '[.. | objects | select(has("id") and has("attrs")) | .id] | .[]' "$1" | sort -u; }
req "$key1" GET "/api/games/$id" && cp "$tmp/body" "$tmp/seat1.json"
req "$key2" GET "/api/games/$id" && cp "$tmp/body" "$tmp/seat2.json"
req - GET "/api/games/$id" && cp "$tmp/body" "$tmp/outsider.json"
[ "$(known "$tmp/seat1.json" hand.1 | wc -l)" = 8 ] && [ "$(known "$tmp/seat1.json" hand.2 | wc -l)" = 0 ] ||
  fail "seat 1's link does not see exactly its own 8 cards: $(jq -c '.view.zones[:2]' "$tmp/seat1.json" | cut -c1-300)"
[ "$(known "$tmp/seat2.json" hand.2 | wc -l)" = 8 ] && [ "$(known "$tmp/seat2.json" hand.1 | wc -l)" = 0 ] ||
  fail "seat 2's link does not see exactly its own 8 cards"
jq -e '.seat == 0 and (.legal | length) == 0 and .seed == "hidden"' "$tmp/outsider.json" > /dev/null || fail "the outsider's view: $(jq -c '{seat, legal, seed}' "$tmp/outsider.json")"
hand1=$(known "$tmp/seat1.json" hand.1 | sort)
hand2=$(known "$tmp/seat2.json" hand.2 | sort)
[ -z "$(comm -12 <(echo "$hand1") <(every_id "$tmp/seat2.json"))" ] || fail "seat 2's view names a card of seat 1's hand"
[ -z "$(comm -12 <(echo "$hand2") <(every_id "$tmp/seat1.json"))" ] || fail "seat 1's view names a card of seat 2's hand"
[ -z "$(comm -12 <(printf '%s\n%s\n' "$hand1" "$hand2" | sort) <(every_id "$tmp/outsider.json"))" ] || fail "the outsider's view names a card of a hand"
jq -e '[.view.zones[] | select(.name == "deck" or .name == "hand.1" or .name == "hand.2") | .count] == [44, 8, 8]' "$tmp/outsider.json" > /dev/null ||
  fail "the outsider does not see the deck and hands as counts: $(jq -c '[.view.zones[] | {name, count}]' "$tmp/outsider.json" | cut -c1-300)"
echo "ok  each link sees its own 8 cards and no card of the other hand; the outsider sees both hands as counts only"

# ---- 3. reading another seat's hand, acting for another seat: 403, nothing changed ----------------------------
refused 403 "your link is seat 1's: it may not see seat 2's hand" "$key1" GET "/api/games/$id?seat=2"
refused 403 "your link is seat 2's: it may not see seat 1's hand" "$key2" GET "/api/games/$id?seat=1"
refused 403 "without a seat link you see the public table only" - GET "/api/games/$id?seat=1"
refused 403 "without a seat link you see the public table only" - GET "/api/games/$id?seat=2"
# a past moment of the game (a log entry clicked) is seen as that seat saw it: another seat's is refused the same way
refused 403 "your link is seat 1's: it may not see seat 2's hand" "$key1" GET "/api/games/$id?seat=2&at=0"
refused 403 "without a seat link you see the public table only" - GET "/api/games/$id?seat=1&at=0"
refused 403 "not one of this game's" "0123456789abcdef0123456789abcdef01234567" GET "/api/games/$id"
refused 403 "not one of this game's" "${key1:0:39}" GET "/api/games/$id?seat=1"
req - POST /api/games '{"ruleset": "lost-cities", "players": ["human", "human"]}'
other_key=$(jq -r '.links[0].key' "$tmp/body")
refused 403 "not one of this game's" "$other_key" GET "/api/games/$id"
refused 403 "your link is seat 2's: it may not act for seat 1" "$key2" POST "/api/games/$id/play" '{"seat": 1, "index": 0}'
refused 403 "without a seat link you may watch but not play" - POST "/api/games/$id/play" '{"seat": 1, "index": 0}'
refused 403 "without a seat link you may watch but not play" - POST "/api/games/$id/play" '{"action": "draw deck"}'
refused 409 "it is seat 1's turn, not seat 2's" "$key2" POST "/api/games/$id/play" '{"index": 0}'
refused 403 "your link is seat 2's: it may not undo seat 1's move" "$key2" POST "/api/games/$id/undo" '{"seat": 1}'
refused 403 "without a seat link you may watch but not undo" - POST "/api/games/$id/undo" '{}'
refused 403 "without a seat link you may watch but not move the bots" - POST "/api/games/$id/bot" '{}'
refused 403 "the transcript is given when the game is over" "$key1" GET "/api/games/$id/transcript"
refused 403 "the transcript is given when the game is over" - GET "/api/games/$id/transcript"
req "$key1" GET "/api/games/$id/version" && jq -e '.version == 0' "$tmp/body" > /dev/null || fail "the refused requests changed the version: $(cat "$tmp/body")"
req "$key1" GET "/api/games/$id" && cmp -s "$tmp/body" "$tmp/seat1.json" || fail "a refused request changed the game"
req "$key2" GET "/api/games/$id" && cmp -s "$tmp/body" "$tmp/seat2.json" || fail "a refused request changed the game (seat 2)"
echo "ok  every refused request left the game byte for byte as it was (version 0)"
# Seat 1 plays (lay a card, then draw): the version counts it; then seat 2 moves, and seat 1 may not undo past it.
req "$key1" POST "/api/games/$id/play" '{"index": 0}'
[ "$status" = 200 ] && jq -e '.seat == 1 and .version == 1' "$tmp/body" > /dev/null || fail "seat 1 could not play with its link: $status $(cut -c1-200 "$tmp/body")"
req - GET "/api/games/$id/version" && jq -e '.version == 1' "$tmp/body" > /dev/null || fail "the outsider does not see the version change: $(cat "$tmp/body")"
req "$key1" POST "/api/games/$id/play" '{"action": "draw deck"}'
[ "$status" = 200 ] && jq -e '.view.to_move == 2' "$tmp/body" > /dev/null || fail "seat 1's draw: $status $(cut -c1-200 "$tmp/body")"
req "$key2" POST "/api/games/$id/play" '{"seat": 2, "index": 0}'
[ "$status" = 200 ] && jq -e '.seat == 2 and .version == 3' "$tmp/body" > /dev/null || fail "seat 2 could not play: $status $(cut -c1-200 "$tmp/body")"
req "$key1" GET "/api/games/$id" && cp "$tmp/body" "$tmp/seat1.json"
refused 409 "seat 2 has decided since your last move" "$key1" POST "/api/games/$id/undo" '{}'
req "$key1" GET "/api/games/$id" && cmp -s "$tmp/body" "$tmp/seat1.json" || fail "the refused undo changed the game"
echo "ok  seat 1 may not undo once seat 2 has moved (the game unchanged)"
# In Lost Valley seat 2's move (a figure on the open map) shows seat 1 nothing hidden: only the seat-link rule
# stops seat 1's undo from taking it back (at a hot seat on this machine the same undo succeeds).
req - POST /api/games '{"ruleset": "lost-valley", "players": ["human", "human", "greedy"]}'
[ "$status" = 201 ] || fail "a Lost Valley game of two people and a bot: $status $(cut -c1-200 "$tmp/body")"
id=$(jq -r .id "$tmp/body")
key1=$(jq -r '.links[] | select(.seat == 1) | .key' "$tmp/body")
key2=$(jq -r '.links[] | select(.seat == 2) | .key' "$tmp/body")
for _ in $(seq 40); do  # seat 1 plays its first legal action until its turn ends
  req "$key1" POST "/api/games/$id/play" '{"index": 0}'
  [ "$status" = 200 ] || fail "Lost Valley, seat 1: $status $(cut -c1-200 "$tmp/body")"
  jq -e '.view.to_move == 1' "$tmp/body" > /dev/null || break
done
jq -e '.view.to_move == 2' "$tmp/body" > /dev/null || fail "Lost Valley: seat 2 is not to move after seat 1's turn"
req "$key2" POST "/api/games/$id/play" '{"index": 0}'
[ "$status" = 200 ] || fail "Lost Valley, seat 2: $status $(cut -c1-200 "$tmp/body")"
req "$key1" GET "/api/games/$id" && cp "$tmp/body" "$tmp/valley.json"
refused 409 "seat 2 has decided since your last move" "$key1" POST "/api/games/$id/undo" '{}'
req "$key1" GET "/api/games/$id" && cmp -s "$tmp/body" "$tmp/valley.json" || fail "Lost Valley: the refused undo changed the game"
echo "ok  Lost Valley: seat 1 may not take back seat 2's move on the open map (the game unchanged)"

# ---- 4. --private: without a link, nothing -----------------------------------------------------------------------
kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null
start_server "$hr" "$tmp/private.log" --host 127.0.0.3 --private
[[ $url == http://127.0.0.3:* ]] || fail "serve --host 127.0.0.3 printed $url"
req - POST /api/games '{"ruleset": "lost-cities", "players": ["human", "human"]}'
[ "$status" = 201 ] || fail "a game on a private server: $status"
id=$(jq -r .id "$tmp/body")
key2=$(jq -r '.links[1].key' "$tmp/body")
grep -qF "http://127.0.0.3:${url##*:}#game=$id&key=$key2" "$tmp/private.log" || fail "the private server did not print seat 2's link: $(cat "$tmp/private.log")"
refused 403 "this server's tables are private" - GET "/api/games/$id"
refused 403 "this server's tables are private" - GET "/api/games/$id/version"
req "$key2" GET "/api/games/$id" && [ "$status" = 200 ] && [ "$(known "$tmp/body" hand.2 | wc -l)" = 8 ] || fail "seat 2's link on a private server: $status"
echo "ok  --private: without a link the game is not shown; with one, its seat"
echo "PASS"
