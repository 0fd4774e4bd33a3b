#!/usr/bin/env bash
# compare_test.sh HOUSERULES SOURCE_DIR
# `houserules compare` on a house rule whose effect is known: seat 1 is dealt an extra card
# (tests/fixtures/seat-one-extra-card). The first-player advantage must rise significantly, in the text, in
# --json and in the HTML report, which Debian's headless chromium must render (charts laid out, bars drawn,
# the verdict in the page). Bad input exits 2 before any game. The browser part is skipped (exit 77 at the
# end) where chromium is missing.
set -uo pipefail
hr=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
variant="$src/tests/fixtures/seat-one-extra-card/seat-one-extra-card.toml"

"$hr" compare lost-cities "$variant" --players greedy,greedy --games 160 --seed 5 --threads 2 --no-progress --json \
  > "$tmp/c.json" || fail "compare --json failed"
python3 - "$tmp/c.json" <<'PY' || fail "the JSON verdict is wrong"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["type"] == "comparison" and doc["mirror"] is True, doc.keys()
m = {x["key"]: x for x in doc["metrics"]}
adv = m["first_player_advantage"]
print("first-player advantage:", adv["verdict"])
assert adv["significant"] and adv["change"]["low"] > 0, adv
assert adv["b"]["value"] > adv["a"]["value"]
assert "rose" in adv["verdict"] and "significant" in adv["verdict"]
assert m["rounds"]["change"]["value"] == 0 and not m["rounds"]["significant"]  # three rounds in both
assert doc["a"]["completed"] == 160 and doc["b"]["completed"] == 160
PY

"$hr" compare lost-cities "$variant" --players greedy,greedy --games 160 --seed 5 --threads 2 --no-progress \
  --report "$tmp/c.html" > "$tmp/c.txt" || fail "compare with --report failed"
cat "$tmp/c.txt"
grep -q "^  - first-player advantage .* rose from .*: significant$" "$tmp/c.txt" || fail "no significant verdict in the text"
# The report names the command as typed (every option, the report path too) and the build's version.
grep -q -- "--threads 2 --no-progress --report $tmp/c.html</code> (houserules $("$hr" --version | cut -d' ' -f2))" "$tmp/c.html" \
  || fail "the report does not give the command line and version: $(grep -o '<code id="command">[^<]*</code>[^<]*' "$tmp/c.html")"

# Failed games (issue 37): with a cap of 500 actions some games of both sides stop unfinished. The top of the text,
# the JSON and the report say how many failed on each side and why, and the figures use only the mirror blocks
# (the two seats' games of one deal) completed on both sides: checked against simulate --mirror's own games.
"$hr" compare lost-cities lost-cities/cooperation --players greedy,greedy --games 40 --seed 3 --threads 2 \
  --max-plies 500 --no-progress --json > "$tmp/f.json"
[ $? -eq 1 ] || fail "compare with failed games did not exit 1"
"$hr" compare lost-cities lost-cities/cooperation --players greedy,greedy --games 40 --seed 3 --threads 2 \
  --max-plies 500 --no-progress --report "$tmp/f.html" > "$tmp/f.txt"
for side in lost-cities lost-cities/cooperation; do
  "$hr" simulate $side --players greedy,greedy --games 40 --seed 3 --mirror --max-plies 500 --threads 2 \
    --no-progress --jsonl "$tmp/$(basename $side).jsonl" > /dev/null 2>&1
done
python3 - "$tmp/f.json" "$tmp/lost-cities.jsonl" "$tmp/cooperation.jsonl" "$tmp/f.txt" "$tmp/f.html" <<'PY' || fail "failed games counted in the figures"
import json, sys
doc = json.load(open(sys.argv[1]))
games = [[json.loads(l) for l in open(f) if '"game"' in l] for f in sys.argv[2:4]]
failed = [sum("error" in g for g in side) for side in games]
assert failed[0] > 0 and failed[1] > 0, failed  # the test needs failures on each side
assert doc["a"]["failed"] == failed[0] and doc["b"]["failed"] == failed[1], (doc["a"], failed)
bad = {g["index"] // 2 for side in games for g in side if "error" in g}
paired = [[g for g in side if g["index"] // 2 not in bad] for side in games]
assert doc["paired"] == len(paired[0]) and doc["left_out"] == 40 - len(paired[0]), (doc["paired"], len(paired[0]))
m = {x["key"]: x for x in doc["metrics"]}
for side, key in ((0, "a"), (1, "b")):
    mean = sum(g["plies"] for g in paired[side]) / len(paired[side])
    assert abs(m["plies"][key]["value"] - mean) < 1e-9, (key, m["plies"][key]["value"], mean)
text = open(sys.argv[4]).read().splitlines()
assert text[1] == "A: %d failed: %d not over after 500 actions (--max-plies); B: %d failed: %d not over after 500 actions (--max-plies)" % (failed[0], failed[0], failed[1], failed[1]), text[1]
assert text[2].startswith("The figures use the %d games each of the mirror blocks both sides completed" % len(paired[0])), text[2]
html = open(sys.argv[5]).read()
assert "A: %d failed: %d not over after 500 actions" % (failed[0], failed[0]) in html
print("failed games: A", failed[0], "B", failed[1], "; paired games", len(paired[0]))
PY

# Bad input: exit 2, before any game.
"$hr" compare lost-cities no-such-ruleset --players greedy,greedy --games 2 > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "an unknown ruleset B did not exit 2"
grep -q "B (no-such-ruleset)" "$tmp/err" || fail "the error does not name B: $(cat "$tmp/err")"
"$hr" compare lost-cities lost-cities --players greedy,nobody --games 2 > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "an unknown bot did not exit 2"
"$hr" compare lost-cities lost-cities --players greedy,greedy --games 2 --report /nonexistent/dir/c.html > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "an unwritable report path did not exit 2"
grep -q "cannot write the report" "$tmp/err" || fail "unclear report error: $(cat "$tmp/err")"

browser=$(command -v chromium || command -v chromium-browser) || { echo "chromium is not installed: skipped"; exit 77; }
flags=(--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
       --disable-sync --no-first-run --user-data-dir="$tmp/profile")
timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$tmp/c.html" > "$tmp/dom.html" 2> "$tmp/browser.log" ||
  { cat "$tmp/browser.log"; fail "chromium --dump-dom failed"; }
dom="$tmp/dom.html"
rows=$(grep -c '<tr class="metric' "$dom")
charts=$(grep -o 'data-rendered-charts="[0-9]*"' "$dom" | grep -o '[0-9]*')
# one change chart per figure, the margin and length histograms, and one score histogram per seat's bot
[ "${charts:-0}" -eq $((rows + 4)) ] || fail "$charts charts laid out with a size, expected $((rows + 4))"
bars=$(grep -o 'data-rendered-bars="[0-9]*"' "$dom" | grep -o '[0-9]*')
[ "${bars:-0}" -ge 10 ] || fail "the histogram bars were not rendered (data-rendered-bars=$bars)"
grep -q '<li class="significant">first-player advantage .* rose from' "$dom" || fail "the verdict is not in the page"
grep -q '<tr class="metric significant" data-key="first_player_advantage">' "$dom" || fail "the figure is not marked"
echo "OK: compare finds the extra card's advantage; the report renders: $charts charts, $bars bars"
