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
#     same result with 1 and 2 jobs;
#  4. an equivalent-mutants file: a declared survivor is left out of the score (and counted apart), a declared
#     mutant the tests kill and an entry that matches no mutant are reported with the file and line of the
#     entry, `--equivalents-template` prints the survivors in the file's format (and a copy of it with `why`
#     filled in, added to the file, declares every one of them), and a group without a reason is refused (exit 2, file:line).
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

echo "--- 4. equivalent mutants"
survivors=$(python3 -c 'import json; print(json.load(open("one.json"))["survived"])')
killed=$(python3 -c 'import json; print(json.load(open("one.json"))["killed"])')
quoted() { python3 -c 'import json, sys; print(json.dumps(sys.argv[1].strip()))' "$1"; }
cp -r "$fixture" tt
cat > tt/equivalent-mutants.toml <<EOF
[[equivalent]]
why = "the tests' games all have bonus = 0"
mutants = [
  { file = "rules.lua", line = $bonus_if, from = $(quoted "$(sed -n "${bonus_if}p" "$rules")"), to = $(quoted "$bonus_if_new") },
]

[[equivalent]]
why = "declared on purpose, wrongly: the scenarios kill it"
mutants = [
  { file = "rules.lua", line = $total_line, from = "local total = 0", to = "local total = 1" },
  { file = "rules.lua", line = 1, from = "no such line", to = "none" },
]
EOF
# `test` on the ruleset folder does not take the equivalents file for a scenario file.
out=$("$hr" test tt 2>&1) || fail "test on a folder with an equivalents file failed: $out"
grep -q '^3 passed, 0 failed$' <<<"$out" || fail "test on a folder with an equivalents file: $out"
"$hr" mutate tt --jobs 2 --check-games 2 >eq.txt 2>eq.err || { cat eq.err; fail "mutate with an equivalents file failed"; }
cat eq.txt
grep -qx "  equivalent      1  (declared in tt/equivalent-mutants.toml: run, and not counted)" eq.txt ||
  fail "the declared survivor is not counted apart"
# The progress line counts as the summary does (issue 37: it said "survived 1" where the summary said 0 and 1
# equivalent): its last line's survived and equivalent are the summary's.
last=$(grep '^\[' eq.err | tail -1)
summary_survived=$(grep -oP '^  survived +\K[0-9]+' eq.txt)
grep -qE "survived $summary_survived, equivalent 1, " <<<"$last" ||
  fail "the progress line ($last) and the summary (survived $summary_survived, equivalent 1) disagree"
# The wrongly declared mutant is killed (and counted so); the declared survivor is left out of the score.
grep -qx "mutation score: .*% ($killed of $((killed + survivors - 1)) mutants on lines the tests run were killed)" eq.txt ||
  fail "the score does not leave out the declared survivor"
grep -qx "  counting the 1 declared equivalent mutant too: .*% ($killed of $((killed + survivors)))" eq.txt ||
  fail "no score counting the declared equivalent mutant"
grep -q "^tt/rules.lua:$bonus_if: comparison, \`>\` -> \`>=\`" eq.txt && fail "a declared survivor is listed as a survivor"
grep -qE "^  tt/equivalent-mutants.toml:10: tt/rules.lua:$total_line: constant, \`0\` -> \`1\` \(FAIL " eq.txt ||
  fail "the wrongly declared mutant is not reported with the entry's line and what killed it"
grep -qx "  tt/equivalent-mutants.toml:11: rules.lua:1: no such line -> none" eq.txt || fail "the stale entry is not reported"
# --only: the mutants of some lines of one file; a declaration elsewhere is not reported as stale.
"$hr" mutate tt --only "rules.lua:$bonus_if" --jobs 2 --check-games 0 --json >only.json 2>only.err ||
  { cat only.err; fail "mutate --only failed"; }
python3 - "$bonus_if" <<'PY' || fail "mutate --only: not the mutants of that line"
import json, sys
line = int(sys.argv[1]); d = json.load(open("only.json")); full = json.load(open("one.json"))
want = sorted(r["change"] for r in full["results"] if r["line"] == line)
got = sorted(r["change"] for r in d["results"])
assert got == want and want, (got, want)
assert d["mutants_selected"] == len(want) and d["mutants_found"] == full["mutants_found"], d
assert d["only"] == [f"rules.lua:{line}"], d["only"]
assert d["stale_equivalents"] == [], d["stale_equivalents"]  # the entry at line 1 is outside the lines asked for
assert [r["status"] for r in d["results"] if r["change"] == "`>` -> `>=`"] == ["equivalent"], d["results"]
PY
grep -q "mutants (--only rules.lua:$bonus_if); running the tests" only.err || fail "mutate --only: the progress does not say which"
"$hr" mutate tt --only rule.lua --check-games 0 >/dev/null 2>only.err && fail "--only of a file that is not mutated was accepted"
grep -qx 'houserules mutate: --only rule.lua: not a file this run mutates (rules.lua, ruleset.toml)' only.err ||
  { cat only.err; fail "--only of an unknown file: not a one-line error naming it and the files"; }
"$hr" mutate tt --only rules.lua:9-3 --check-games 0 >/dev/null 2>only.err && fail "--only with lines 9-3 was accepted"
grep -q '^houserules mutate: --only rules.lua:9-3: lines are LINE or FIRST-LAST' only.err || { cat only.err; fail "--only 9-3: no error"; }
# The template: every undeclared survivor, in the file's format; with `why` written in, it declares them all.
"$hr" mutate tt --jobs 2 --check-games 2 --equivalents-template >template.toml 2>/dev/null || fail "--equivalents-template failed"
[ "$(grep -c '^  { file = ' template.toml)" = "$((survivors - 1))" ] ||
  fail "the template does not list the $((survivors - 1)) undeclared survivors"
sed 's/^why = ""$/why = "accepted for the test"/' template.toml >> tt/equivalent-mutants.toml
"$hr" mutate tt --jobs 2 --check-games 2 >all.txt 2>/dev/null || fail "mutate with the template's file failed"
cat all.txt
grep -qx "  survived        0" all.txt || fail "the template's entries do not declare every survivor"
grep -qx "mutation score: 100.0% ($killed of $killed mutants on lines the tests run were killed)" all.txt ||
  fail "with every survivor declared the score is not 100%"
# A group without a reason is refused, naming the file and line.
printf '[[equivalent]]\nwhy = ""\nmutants = [ { file = "rules.lua", line = 1, from = "a", to = "b" } ]\n' > tt/equivalent-mutants.toml
"$hr" mutate tt --check-games 0 >/dev/null 2>bad.err && fail "a group without a reason was accepted"
grep -q '^houserules mutate: tt/equivalent-mutants.toml:2: .*`why` must say' bad.err || { cat bad.err; fail "no file:line error for a missing reason"; }
echo "PASS"
