#!/usr/bin/env bash
# coverage_mutate_test.sh HOUSERULES SOURCE-DIR
# Coverage and mutation testing on the tiny-take fixture (tests/fixtures/tiny-take), whose scenarios never
# turn the bonus on:
#  1. `test --coverage` reports bonus_for's body as never run and bonus_for as never called, the other lines
#     of score as run; `--lcov` writes a tracefile with those counts, which genhtml renders (when installed);
#     `--coverage-json` lists the same unrun lines;
#  2. `check --coverage` counts random games too;
#  3. `mutate` kills `total = 0` -> `total = 1`, lets `P.bonus > 0` -> `>=` survive (equivalent: the bonus
#     is 0) and shows it as a diff with file:line, reports bonus_for's mutants as not covered, and gives the
#     same result with 1 and 2 jobs.
set -uo pipefail
hr=$1
source_dir=$2
fixture="$source_dir/tests/fixtures/tiny-take"
rules="$fixture/rules.lua"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$tmp" || exit 1

first=$(( $(grep -n '^local function bonus_for' "$rules" | cut -d: -f1) + 1 ))
last=$(grep -n "^  return 0$" "$rules" | cut -d: -f1)  # the last line of bonus_for Lua reports
score_line=$(grep -n '^function rules.score' "$rules" | cut -d: -f1)
bonus_if=$(grep -n 'if P.bonus > 0 then' "$rules" | cut -d: -f1)
total_line=$(grep -n '  local total = 0' "$rules" | cut -d: -f1)
[ -n "$first" ] && [ -n "$last" ] && [ -n "$bonus_if" ] && [ -n "$total_line" ] || fail "fixture lines not found"

echo "--- 1. test --coverage --lcov --coverage-json"
out=$("$hr" test "$fixture/tests" --coverage --lcov cov.info --coverage-json cov.json 2>&1) || fail "test failed:
$out"
printf '%s\n' "$out"
grep -q '^3 passed, 0 failed$' <<<"$out" || fail "the scenarios did not pass"
grep -qE "^  .*tiny-take/rules\.lua +lines [0-9.]+% \([0-9]+/[0-9]+\)  functions [0-9.]+% \([0-9]+/[0-9]+\)$" <<<"$out" ||
  fail "no per-file line with the shares of lines and functions"
grep -qx "    never run: lines $first-$last" <<<"$out" || fail "bonus_for's lines $first-$last not reported as the lines never run"
grep -qx "    never called: bonus_for ($((first - 1)))" <<<"$out" || fail "bonus_for not reported as never called"
grep -q "^SF:.*tiny-take/rules.lua$" cov.info || fail "no SF record for rules.lua in the tracefile"
for line in $(seq "$first" "$last"); do
  grep -qx "DA:$line,0" cov.info || fail "tracefile: line $line of bonus_for should have 0 hits"
done
grep -qE "^DA:$total_line,[1-9][0-9]*$" cov.info || fail "tracefile: line $total_line (score) should have run"
grep -qx "FNDA:0,bonus_for" cov.info || fail "tracefile: bonus_for should have 0 calls"
grep -qE "^FNDA:[1-9][0-9]*,rules.score$" cov.info || fail "tracefile: rules.score should have been called"
grep -qx "FN:$score_line,rules.score" cov.info || fail "tracefile: FN record of rules.score"
grep -qx "end_of_record" cov.info || fail "tracefile: no end_of_record"
python3 - "$first" "$last" <<'PY' || fail "coverage JSON"
import json, sys
doc = json.load(open("cov.json"))
f = [f for f in doc["files"] if f["file"].endswith("tiny-take/rules.lua")][0]
assert f["lines"]["unrun"] == list(range(int(sys.argv[1]), int(sys.argv[2]) + 1)), f["lines"]["unrun"]
names = {fn["name"]: fn["calls"] for fn in f["functions"]["list"]}
assert names["bonus_for"] == 0 and names["rules.score"] > 0, names
PY
if command -v genhtml >/dev/null; then
  genhtml cov.info -o html >genhtml.log 2>&1 || { cat genhtml.log; fail "genhtml rejected the tracefile"; }
  [ -f html/index.html ] || fail "genhtml wrote no index.html"
  grep -rq "bonus_for" html || fail "the HTML does not show bonus_for"
else
  echo "genhtml not installed (Debian package lcov): the HTML step is skipped"
fi

echo "--- 2. check --coverage"
out=$("$hr" check "$fixture" --games 3 --coverage 2>&1) || fail "check failed: $out"
grep -q "never called: bonus_for" <<<"$out" || fail "check --coverage: no coverage report"

echo "--- 3. mutate"
"$hr" mutate "$fixture" --jobs 2 --check-games 2 >mutate.txt 2>mutate.err || { cat mutate.err; fail "mutate failed"; }
cat mutate.txt
grep -qE '^mutation score: [0-9.]+% \([0-9]+ of [0-9]+ mutants on lines the tests run were killed\)$' mutate.txt ||
  fail "no score line"
grep -q "rules.lua:$bonus_if: comparison, \`>\` -> \`>=\`" mutate.txt || fail "the surviving mutant P.bonus >= 0 is not listed"
grep -qx "    - $(sed -n "${bonus_if}p" "$rules")" mutate.txt || fail "the survivor's diff lacks the old line"
grep -qx "    + ${bonus_if_new:=$(sed -n "${bonus_if}p" "$rules" | sed 's/P.bonus > 0/P.bonus >= 0/')}" mutate.txt ||
  fail "the survivor's diff lacks the new line"
grep -qE "^  .*tiny-take/rules.lua: [0-9]+ mutants, lines $first-$last$" mutate.txt ||
  fail "bonus_for's mutants are not reported as not covered"
"$hr" mutate "$fixture" --jobs 1 --check-games 2 --json >one.json 2>/dev/null || fail "mutate --json failed"
"$hr" mutate "$fixture" --jobs 2 --check-games 2 --json >two.json 2>/dev/null || fail "mutate --json failed"
python3 - "$total_line" "$bonus_if" <<'PY' || fail "mutate JSON"
import json, sys
total_line, bonus_if = int(sys.argv[1]), int(sys.argv[2])
one, two = json.load(open("one.json")), json.load(open("two.json"))
strip = lambda d: [(r["file"], r["line"], r["change"], r["status"]) for r in d["results"]]
assert strip(one) == strip(two), "1 job and 2 jobs differ"
by = {(r["line"], r["change"]): r["status"] for r in one["results"]}
assert by[(total_line, "`0` -> `1`")] == "killed", by
assert by[(bonus_if, "`>` -> `>=`")] == "survived", by
assert one["survived"] >= 1 and one["killed"] >= 1 and one["not_covered"] >= 1, one
PY
echo "PASS"
