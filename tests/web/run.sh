#!/usr/bin/env bash
# run.sh HOUSERULES SCREENSHOT_DIR [SCRIPT [SERVE OPTIONS...]] — the browser test of `houserules serve` (serve_test.mjs): starts the server on a
# free port and drives Debian's headless chromium through playwright-core (pinned in package.json; `npm ci` in
# tests/web installs it); SCRIPT is serve_test.mjs by default (security_test.mjs: the page fetches nothing outside
# the server). Exits 77 (CTest: skipped) with the reason when chromium, node or node_modules is missing.
# To refresh the committed screenshots of docs/screenshots/: tests/web/run.sh build/cli/houserules docs/screenshots
set -uo pipefail
hr=$(realpath "$1")
shots=$2
script=${3:-serve_test.mjs}
here=$(cd "$(dirname "$0")" && pwd)
browser=$(command -v chromium || command -v chromium-browser) || { echo "chromium is not installed: skipped"; exit 77; }
command -v node > /dev/null || { echo "node is not installed: skipped (apt-get install nodejs npm)"; exit 77; }
[ -f "$here/node_modules/playwright-core/package.json" ] ||
  { echo "tests/web/node_modules is missing: skipped (run 'npm ci' in tests/web; ./test.sh does when npm is present)"; exit 77; }
tmp=$(mktemp -d)
source "$here/serve_helpers.sh"
mkdir -p "$shots"
# A finished game of each ruleset to step through (Lost Valley: its map built tile by tile).
"$hr" play lost-valley --players random,random,random --seed 5 --quiet --log "$tmp/lost-valley.jsonl" > /dev/null ||
  { echo "FAIL: play lost-valley"; exit 1; }
# The house rules of tests/fixtures/web-draw (typed by path in the page) lie on the search path.
fixtures=$(cd "$here/../fixtures/web-draw" && pwd)
export HOUSERULES_PATH=$fixtures
start_server "$hr" "$tmp/serve.log" "${@:4}"
BROWSER="$browser" URL="$url" TMP="$tmp" SHOTS="$shots" FIXTURES="$fixtures" SERVE_LOG="$tmp/serve.log" HR="$hr" timeout 600 node "$here/$script"
status=$?
[ $status -eq 0 ] || { echo "--- serve's output:"; tail -20 "$tmp/serve.log"; }
exit $status
