#!/usr/bin/env bash
# report_test.sh HOUSERULES
# Renders the HTML report of a small simulation (with a --set override) in Debian's headless Chromium and
# asserts on the DOM after rendering: the page's own script counted the charts that were laid out with a size
# (data-rendered-charts), the bars with a height (data-rendered-bars), the charts with tick labels laid out
# (data-charts-with-ticks) and the zero lines drawn (data-rendered-zero-lines); the eight SVG charts, the
# per-seat table's rows with places, the parameter table naming the --set override, the bots per seat, the
# command line and version, the action counts and the numbers of the printed summary are there. A second run
# whose games all hit --max-plies must flag them as overlong with the command that replays one. Also takes a
# screenshot. Exits 77 (CTest: skipped) if chromium is missing.
set -uo pipefail
hr=$1
browser=$(command -v chromium || command -v chromium-browser) || { echo "chromium is not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
flags=(--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
       --disable-sync --no-first-run --user-data-dir="$tmp/profile")

"$hr" simulate lost-cities --games 30 --players greedy,random --seed 3 --set expedition_cost=25 --no-progress \
  --report "$tmp/report.html" > "$tmp/summary.txt" || fail "simulate failed"
cat "$tmp/summary.txt"
grep -q "^  expedition_cost = 25 (default 20; set by --set expedition_cost=25)$" "$tmp/summary.txt" ||
  fail "the summary does not name the changed parameter"
timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$tmp/report.html" > "$tmp/dom.html" 2> "$tmp/browser.log" ||
  { cat "$tmp/browser.log"; fail "chromium --dump-dom failed"; }
dom="$tmp/dom.html"
charts=8  # win rates, 2 score histograms, winning margins, mean margins, turns, rounds, actions per game
grep -q "data-rendered-charts=\"$charts\"" "$dom" ||
  fail "not $charts charts laid out with a size: $(grep -o 'data-rendered-charts="[0-9]*"' "$dom")"
bars=$(grep -o 'data-rendered-bars="[0-9]*"' "$dom" | grep -o '[0-9]*')
[ "${bars:-0}" -ge 10 ] || fail "the bars were not rendered (data-rendered-bars=$bars)"
grep -q "data-charts-with-ticks=\"$charts\"" "$dom" ||
  fail "not every chart has its tick labels laid out: $(grep -o 'data-charts-with-ticks="[0-9]*"' "$dom")"
# Zero lines: both score histograms (scores cross 0 in Lost Cities), the winning margins, the mean margins.
grep -q 'data-rendered-zero-lines="4"' "$dom" ||
  fail "not 4 zero lines drawn: $(grep -o 'data-rendered-zero-lines="[0-9]*"' "$dom")"
for id in win-rates scores-1 scores-2 margins margin-means game-turns game-rounds game-length; do
  grep -q "<svg id=\"$id\"" "$dom" || fail "no <svg id=\"$id\"> in the rendered page"
done
# The per-seat table: one row per seat, its places adding up to the completed games (30).
[ "$(grep -c '<tr class="seat">' "$dom")" -eq 2 ] || fail "the seat table does not have 2 rows"
grep '<tr class="seat">' "$dom" | while read -r row; do
  sum=$(( $(grep -o "<td class=\"place\">[0-9]*</td>" <<<"$row" | grep -o "[0-9]*" | paste -sd+) ))
  [ "$sum" -eq 30 ] || { echo "FAIL: places of a seat add up to $sum, not 30: $row"; exit 1; }
done || exit 1
# The parameter table names the --set override, marked as changed, with the ruleset's default.
grep -q '<tr class="parameter changed"><td>expedition_cost</td><td><code>25</code></td><td><code>20</code></td><td>--set expedition_cost=25</td></tr>' "$dom" ||
  fail "the parameter table does not show the --set override"
[ "$(grep -c '<tr class="parameter changed">' "$dom")" -eq 1 ] || fail "another parameter is marked as changed"
grep -q '<tr id="command-line"><th>command line</th><td><code>houserules simulate lost-cities --games 30 ' "$dom" ||
  fail "the exact command line is not in the page"
grep -q "<tr id=\"version\"><th>houserules version</th><td>$("$hr" --version | awk '{print $2}')</td>" "$dom" ||
  fail "the version is not in the page"
[ "$(grep -o '<tr class="bot">' "$dom" | wc -l)" -eq 2 ] || fail "the bots per seat are not listed"
grep -q '<tr class="action-kind"><td>draw</td>' "$dom" || fail "no action counts"
for player in greedy random; do
  rate=$(awk -v p="$player" '$1 == p { print $4 }' "$tmp/summary.txt")
  [ -n "$rate" ] || fail "no win rate for $player in the summary"
  grep -q "<td class=\"win-rate\">$rate</td>" "$dom" || fail "the win rate $rate of $player is not in the page"
done
games=$(grep -o '<span id="games">[0-9]*</span>' "$dom")
[ "$games" = '<span id="games">30</span>' ] || fail "the game count is not in the page"

# Overlong games: every game stops at 50 actions; flagged, with the command that replays one.
"$hr" simulate lost-cities --games 4 --players greedy,random --seed 3 --max-plies 50 --no-progress --no-action-counts \
  --report "$tmp/overlong.html" > "$tmp/overlong.txt"
[ $? -eq 1 ] || fail "a simulation whose games all hit --max-plies should exit 1"
grep -q "^Overlong games: 4 hit the cap of 50 actions" "$tmp/overlong.txt" || fail "the summary does not flag overlong games"
grep -q '<p id="actions">Not counted in these games (simulate --no-action-counts' "$tmp/overlong.html" ||
  fail "--no-action-counts: the report does not say the actions were not counted"
grep -q "^Actions per game" "$tmp/overlong.txt" && fail "--no-action-counts: the summary still counts actions"
[ "$(grep -c '<li class="overlong-game">' "$tmp/overlong.html")" -eq 4 ] || fail "the report does not list the 4 overlong games"
grep -q '<li class="overlong-game">game 0 (seed [0-9]*)<br><code>houserules play lost-cities --players greedy,random --seed [0-9]*</code>' \
  "$tmp/overlong.html" || fail "an overlong game is not listed with its replay command"

timeout 120 "$browser" "${flags[@]}" --screenshot="$tmp/report.png" --window-size=1200,1600 "file://$tmp/report.html" \
  > /dev/null 2>> "$tmp/browser.log" || fail "chromium --screenshot failed"
size=$(stat -c %s "$tmp/report.png" 2> /dev/null || echo 0)
[ "$size" -gt 10000 ] || fail "the screenshot is missing or blank ($size bytes)"
echo "OK: the report renders in $($browser --version 2> /dev/null): $bars bars, $charts charts with ticks, 4 zero lines, screenshot $size bytes"
