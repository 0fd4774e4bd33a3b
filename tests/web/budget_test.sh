#!/usr/bin/env bash
# budget_test.sh HOUSERULES — `houserules serve` keeps each game's work to itself and its memory within a budget
# (docs/serve.md, "Security"):
#  * trick "one slow house rule stops the server for everyone": a game of tests/fixtures/web-draw/slow-draw.toml
#    (its draw_component hook counts for a long time on every card) is being made; meanwhile GET /api/rulesets and
#    a move in another game both answer before it does (each game has its own lock; before, one lock held them);
#  * a house rule whose drawing hook outruns the sandbox's time limit (stuck-draw.toml): the hook is stopped, the
#    game's view says so (draw_error), the server goes on;
#  * with --request-time 1, a game of slow-draw.toml is drawn only until its request's time budget is spent, and its
#    view says so; and the log of a whole game of slow-summary.toml (its turn_summary hook counts for a while, and the
#    log is told again on every request) stops there with an entry saying so (without the stop: a 40 s answer);
#  * trick "70 games that fill their Lua heap bring the server to 2.4 GB": with --memory 256, 16 games of
#    heap-filler.toml (40 MiB each, 640 MiB in all) leave at most 256 MiB of Lua heap held, the oldest games evicted
#    (404 naming the budget), the newest still playable, and the server's resident memory stays under 450 MiB.
set -uo pipefail
hr=$1
command -v curl > /dev/null || { echo "curl is not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
src=$(cd "$(dirname "$0")/../.." && pwd)
fixtures=$src/tests/fixtures/web-draw
export HOUSERULES_PATH=$fixtures
source "$(dirname "$0")/serve_helpers.sh"
start_server "$hr" "$tmp/serve.log" --memory 256
fail() { echo "FAIL: $*"; exit 1; }
now() { date +%s.%N; }
post() {  # post PATH BODY OUT -> the HTTP status on stdout, the body in OUT
  curl -s -o "$3" -w '%{http_code}' -X POST -H 'Content-Type: application/json' --data-binary "$2" "$url${1#/}"
}
game_id() { grep -o '"id":"g[0-9a-f]*"' "$1" | head -1 | cut -d'"' -f4; }

# --- one slow game holds up nobody else ---
[ "$(post /api/games '{"ruleset": "lost-cities", "players": ["human", "random"], "seed": 7}' "$tmp/other")" = 201 ] ||
  fail "a Lost Cities game: $(cat "$tmp/other")"
other=$(game_id "$tmp/other")
start=$(now)
( post /api/games "{\"ruleset\": \"$fixtures/slow-draw.toml\", \"players\": [\"human\", \"random\"], \"seed\": 7}" "$tmp/slow" > "$tmp/slow.status"
  now > "$tmp/slow.done" ) &
slow_pid=$!
sleep 0.3
status=$(curl -s -o "$tmp/rulesets" -w '%{http_code}' "${url}api/rulesets")
rulesets_done=$(now)
[ "$status" = 200 ] || fail "GET /api/rulesets during the slow game -> $status"
status=$(post "/api/games/$other/play" '{"seat": 1, "index": 0}' "$tmp/move")
move_done=$(now)
[ "$status" = 200 ] || fail "a move in another game during the slow game -> $status $(cut -c1-200 "$tmp/move")"
wait $slow_pid
[ "$(cat "$tmp/slow.status")" = 201 ] || fail "the slow game: $(cat "$tmp/slow.status") $(cut -c1-300 "$tmp/slow")"
slow_done=$(cat "$tmp/slow.done")
took() { echo "$1 - $start" | bc; }
echo "slow game answered after $(took "$slow_done") s; GET /api/rulesets after $(took "$rulesets_done") s; the other game's move after $(took "$move_done") s"
(( $(echo "$slow_done - $start > 1.0" | bc) )) || fail "the slow game was not slow ($(took "$slow_done") s): the test proves nothing"
(( $(echo "$rulesets_done < $slow_done && $move_done < $slow_done" | bc) )) ||
  fail "GET /api/rulesets or the other game's move waited for the slow game"
echo "ok  one slow house rule holds up neither the ruleset list nor another game"

# --- a hook that overruns is stopped and reported on its game's page; the game and the server go on ---
status=$(post /api/games "{\"ruleset\": \"$fixtures/stuck-draw.toml\", \"players\": [\"human\", \"random\"], \"seed\": 7}" "$tmp/stuck")
[ "$status" = 201 ] || fail "the stuck game: $status $(cut -c1-300 "$tmp/stuck")"
grep -q '"draw_error":"hook .draw_component. failed: [^"]*ran longer than the limit of 2000 ms and was stopped' "$tmp/stuck" || fail "the stuck game's view does not say its hook ran out of time: $(grep -o '"draw_error":"[^"]*"' "$tmp/stuck" | cut -c1-300)"
stuck=$(game_id "$tmp/stuck")
echo "ok  stuck-draw: $(grep -o '"draw_error":"[^"]*"' "$tmp/stuck" | cut -c1-140)"
status=$(curl -s -o /dev/null -w '%{http_code}' "${url}api/rulesets")
[ "$status" = 200 ] || fail "the server does not go on after the stuck hook: $status"
echo "ok  the server goes on after a hook that overran"

# --- the time budget of one request (--request-time 1 on a second server): drawing stops, the view says so ---
(  # a subshell: its own tmp and server, both gone when it ends (serve_helpers.sh's trap)
  tmp=$(mktemp -d)
  start_server "$hr" "$tmp/serve2.log" --request-time 1
  status=$(post /api/games "{\"ruleset\": \"$fixtures/slow-draw.toml\", \"players\": [\"human\", \"random\"], \"seed\": 7}" "$tmp/budget")
  [ "$status" = 201 ] || fail "slow-draw under --request-time 1: $status $(cut -c1-300 "$tmp/budget")"
  grep -q '"draw_error":"hook .draw_component.: drawing stopped, the server.s time budget for one request ran out' "$tmp/budget" ||
    fail "slow-draw under --request-time 1: the view does not say the time budget ran out: $(grep -o '"draw_error":"[^"]*"' "$tmp/budget" | cut -c1-300)"
  echo "ok  --request-time 1: $(grep -o '"draw_error":"[^"]*"' "$tmp/budget" | cut -c1-140)"
  # the log of a long game whose turn_summary is slow: told until the budget runs out, then an entry says so
  status=$(post /api/games "{\"ruleset\": \"$fixtures/slow-summary.toml\", \"players\": [\"random\", \"random\"], \"seed\": 7}" "$tmp/story")
  [ "$status" = 201 ] || fail "slow-summary under --request-time 1: $status $(cut -c1-300 "$tmp/story")"
  story=$(game_id "$tmp/story")
  status=$(post "/api/games/$story/bot" '{"until_human": true}' "$tmp/story")
  [ "$status" = 200 ] || fail "slow-summary's bots under --request-time 1: $status $(cut -c1-300 "$tmp/story")"
  grep -q '"error":"the log stops here: the server.s time budget for one request ran out"' "$tmp/story" ||
    fail "slow-summary under --request-time 1: the log does not stop at the budget: $(grep -o '"story":.\{0,300\}' "$tmp/story")"
  echo "ok  --request-time 1: the log of slow summaries stops at the budget: $(grep -o '"summary":"([0-9]* more actions not told)"' "$tmp/story")"
) || exit 1

# --- the memory budget: the oldest idle games are evicted ---
ids=()
for i in $(seq 16); do
  status=$(post /api/games "{\"ruleset\": \"$fixtures/heap-filler.toml\", \"players\": [\"human\", \"random\"], \"seed\": $i}" "$tmp/heap")
  [ "$status" = 201 ] || fail "heap-filler game $i -> $status $(cut -c1-300 "$tmp/heap")"
  ids+=("$(game_id "$tmp/heap")")
done
curl -s "${url}api/start" > "$tmp/start"
lua=$(grep -o '"lua_memory":[0-9]*' "$tmp/start" | cut -d: -f2)
held=$(grep -o '"sessions":[0-9]*' "$tmp/start" | cut -d: -f2)
rss=$(awk '/^VmRSS:/ {print int($2 / 1024)}' "/proc/$server_pid/status")
hwm=$(awk '/^VmHWM:/ {print int($2 / 1024)}' "/proc/$server_pid/status")
echo "after 16 games of 40 MiB: $held games and replays held, Lua heaps $((lua >> 20)) MiB, server RSS $rss MiB (peak $hwm MiB)"
[ "$lua" -le $((256 << 20)) ] || fail "the Lua heaps hold $((lua >> 20)) MiB, over the budget of 256 MiB"
status=$(curl -s -o "$tmp/body" -w '%{http_code}' "${url}api/games/${ids[0]}")
[ "$status" = 404 ] && grep -q "memory budget of 256 MiB" "$tmp/body" || fail "the oldest game was not evicted: $status $(cut -c1-200 "$tmp/body")"
status=$(post "/api/games/${ids[15]}/play" '{"seat": 1, "index": 0}' "$tmp/body")
[ "$status" = 200 ] || fail "the newest game does not play: $status $(cut -c1-200 "$tmp/body")"
# Under AddressSanitizer (tests/sanitize.sh) freed memory sits in ASan's quarantine and every allocation carries
# shadow memory, so the resident size says nothing about the budget there (664 MiB seen): the eviction itself is
# still checked above; the bound holds for the plain build, which ./test.sh runs.
if ldd "$hr" 2> /dev/null | grep 'libasan' > /dev/null; then
  echo "note: a sanitizer build: the RSS bound (450 MiB) is checked in the plain build only (RSS here: $rss MiB)"
else
  [ "$rss" -lt 450 ] || fail "the server's resident memory is $rss MiB after eviction (bound: 450 MiB)"
fi
echo "ok  the memory budget: the oldest games evicted (404 naming the budget), the newest plays, RSS $rss MiB"
echo "PASS"
