#!/usr/bin/env bash
# report_test.sh HOUSERULES
# Renders the HTML report of a small simulation in Debian's headless Chromium and asserts on the DOM after
# rendering: the page's own script counted the charts that were laid out with a size (data-rendered-charts)
# and the histogram/win-rate bars with a height (data-rendered-bars); the four SVG charts and the numbers of
# the printed summary are there. Also takes a screenshot. Exits 77 (CTest: skipped) if chromium is missing.
set -uo pipefail
hr=$1
browser=$(command -v chromium || command -v chromium-browser) || { echo "chromium is not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
flags=(--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
       --disable-sync --no-first-run --user-data-dir="$tmp/profile")

"$hr" simulate lost-cities --games 30 --players greedy,random --seed 3 --no-progress --report "$tmp/report.html" \
  > "$tmp/summary.txt" || fail "simulate failed"
cat "$tmp/summary.txt"
timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$tmp/report.html" > "$tmp/dom.html" 2> "$tmp/browser.log" ||
  { cat "$tmp/browser.log"; fail "chromium --dump-dom failed"; }
dom="$tmp/dom.html"
grep -q 'data-rendered-charts="4"' "$dom" || fail "not 4 charts laid out with a size: $(grep -o 'data-rendered-charts="[0-9]*"' "$dom")"
bars=$(grep -o 'data-rendered-bars="[0-9]*"' "$dom" | grep -o '[0-9]*')
[ "${bars:-0}" -ge 4 ] || fail "the bars were not rendered (data-rendered-bars=$bars)"
for id in win-rates scores-1 scores-2 game-length; do
  grep -q "<svg id=\"$id\"" "$dom" || fail "no <svg id=\"$id\"> in the rendered page"
done
for player in greedy random; do
  rate=$(awk -v p="$player" '$1 == p { print $4 }' "$tmp/summary.txt")
  [ -n "$rate" ] || fail "no win rate for $player in the summary"
  grep -q "<td class=\"win-rate\">$rate</td>" "$dom" || fail "the win rate $rate of $player is not in the page"
done
games=$(grep -o '<span id="games">[0-9]*</span>' "$dom")
[ "$games" = '<span id="games">30</span>' ] || fail "the game count is not in the page"

timeout 120 "$browser" "${flags[@]}" --screenshot="$tmp/report.png" --window-size=1200,1600 "file://$tmp/report.html" \
  > /dev/null 2>> "$tmp/browser.log" || fail "chromium --screenshot failed"
size=$(stat -c %s "$tmp/report.png" 2> /dev/null || echo 0)
[ "$size" -gt 10000 ] || fail "the screenshot is missing or blank ($size bytes)"
echo "OK: the report renders in $($browser --version 2> /dev/null): $bars bars, 4 charts, screenshot $size bytes"
