#!/usr/bin/env bash
# cli_json_test.sh HOUSERULES SOURCE_DIR — `--json` on list, describe, check, test, simulate and merge prints
# exactly one JSON document on stdout (python3's json module reads the whole of stdout) with the fields
# docs/cli.md documents; `test --junit FILE` writes JUnit XML that python3's XML parser reads, one testsuite per
# file and one testcase per scenario, the failure naming file:line, special characters escaped.
source "$(dirname "$0")/cli_test_lib.sh" "$1" "$2"

# json NAME ARGS...: runs houserules ARGS with stdout in $d/NAME.json; the document must parse.
json() {
  local name=$1
  shift
  "$hr" "$@" > "$d/$name.json" 2> "$d/$name.err"
  echo $? > "$d/$name.status"
  python3 -m json.tool "$d/$name.json" > /dev/null || { head -c 600 "$d/$name.json"; fail "houserules $* --json: stdout is not one JSON document"; }
}
# expect NAME PYTHON-EXPRESSION: the expression over `doc` (the parsed document) must be true.
expect() {
  python3 - "$d/$1.json" "$2" <<'EOF' || fail "$1: $2"
import json, sys
doc = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)
EOF
}

"$hr" list --json | python3 -m json.tool > /dev/null || fail "houserules list --json | python3 -m json.tool"
json list list --json
expect list "any(r['id'] == 'lost-cities' and r['players']['min'] == 2 for r in doc['rulesets'])"
expect list "any(v['id'] == 'lost-cities/three-player' and v['players']['min'] == 3 for r in doc['rulesets'] for v in r['variants'])"
expect list "doc['skipped'] == [] and len(doc['search_path']) >= 1"

json describe describe lost-cities/three-player --json
expect describe "doc['id'] == 'lost-cities/three-player' and doc['base_id'] == 'lost-cities'"
expect describe "doc['params']['hand_size'] >= 1 and 'actions' in doc['hooks']"
expect describe "any(p['name'] == 'hand_size' and p['line'] > 0 and '..' in p['schema'] for p in doc['parameters'])"
expect describe "doc['variants'][0]['id'] == 'three-player'"

json check check lost-cities --games 3 --json
expect check "doc['status'] == 0 and doc['runs'][0]['games'] == 3 and doc['runs'][0]['failed'] == 0"
expect check "doc['runs'][0]['seats'] == 2 and doc['runs'][0]['actions'] > 0 and doc['runs'][0]['violations'] == []"
[ "$(cat "$d/check.status")" = 0 ] || fail "check --json exited $(cat "$d/check.status")"
grep -q 'no violation' "$d/check.err" || fail "check --json: the text summary is not on stderr"
# a violation is in the document: the planted bug of tests/fixtures/planted-bugs/unordered-columns
json planted check "$src/tests/fixtures/planted-bugs/unordered-columns" --games 10 --max-plies 3000 --json
expect planted "doc['status'] == 1 and doc['runs'][0]['failed'] >= 1"
expect planted "doc['runs'][0]['violations'][0]['check'] == 'ruleset invariant' and 'houserules check' in doc['runs'][0]['violations'][0]['reproduce']"

# simulate and merge: the summary as JSON; progress and timing stay on stderr
json sim simulate lost-cities --players greedy,random --games 6 --seed 3 --threads 1 --no-progress --json --jsonl "$d/all.jsonl"
expect sim "doc['experiment']['games'] == 6 and doc['completed'] == 6 and doc['failed'] == 0 and doc['overlong'] == []"
expect sim "[s['label'] for s in doc['settings']] == ['greedy', 'random'] and doc['settings'][0]['games'] == 6"
expect sim "len(doc['seats']) == 2 and doc['length']['min'] > 0 and doc['complete'] is True"
grep -q 'games in' "$d/sim.err" || fail "simulate --json: the timing line is not on stderr"
expect sim "sum(doc['seats'][0]['places']) == 6 and doc['actions']['draw']['total'] > 0 and doc['turns']['min'] > 0"
expect sim "doc['run']['command_lines'][0].startswith('houserules simulate lost-cities ') and doc['run']['version'] != ''"
expect sim "any(p['name'] == 'hand_size' and p['default'] == p['value'] and not p['changed'] for p in doc['run']['parameters'])"
json merged merge "$d/all.jsonl" --json
# equal but for the command lines: the run's in simulate's, the shard's and merge's own in merge's
expect merged "doc['run']['command_lines'][1].startswith('houserules merge ')"
sed -i '/"command_lines": \[/,/\]/d' "$d/sim.json" "$d/merged.json"
cmp -s "$d/sim.json" "$d/merged.json" || { diff "$d/sim.json" "$d/merged.json" | head; fail "merge --json differs from simulate --json"; }

# test --json and --junit: a file with a passing scenario, a failing one (with < & " in its name), and a file
# that does not parse
mkdir -p "$d/t"
cat > "$d/t/a.toml" <<EOF
ruleset = "lost-cities"
[[scenario]]
name = "a game starts"
seed = 1
[scenario.expect]
over = false
[[scenario]]
name = "wrong <round> & \"quotes\""
seed = 1
[scenario.expect]
round = 2
EOF
printf 'ruleset = "lost-cities"\n[[scenario]\n' > "$d/t/b.toml"
json test test "$d/t" --json --junit "$d/r.xml"
[ "$(cat "$d/test.status")" = 1 ] || fail "test --json with a failing scenario exited $(cat "$d/test.status")"
expect test "doc['passed'] == 1 and doc['failed'] == 2 and len(doc['tests']) == 3"
expect test "doc['tests'][0]['status'] == 'passed' and doc['tests'][0]['line'] == 2"
expect test "doc['tests'][1]['status'] == 'failed' and doc['tests'][1]['message'].startswith(doc['tests'][1]['file'] + ':')"
expect test "doc['tests'][2]['name'] == '(file)' and doc['tests'][2]['file'].endswith('b.toml')"
grep -q '1 passed, 2 failed' "$d/test.err" || fail "test --json: the text output is not on stderr"
python3 - "$d/r.xml" "$d/t/a.toml" <<'EOF' || fail "test --junit: the XML is not what CI systems read"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == 'testsuites' and root.get('tests') == '3' and root.get('failures') == '2', root.attrib
suites = root.findall('testsuite')
assert len(suites) == 2, [s.get('name') for s in suites]
a = suites[0]
assert a.get('name') == sys.argv[2] and a.get('tests') == '2' and a.get('failures') == '1', a.attrib
cases = a.findall('testcase')
assert [c.get('name') for c in cases] == ['a game starts', 'wrong <round> & "quotes"'], [c.get('name') for c in cases]
assert cases[0].find('failure') is None
failure = cases[1].find('failure')
assert failure is not None and failure.get('message').startswith(sys.argv[2] + ':11: ') and 'round' in failure.get('message'), failure.attrib
assert suites[1].find('testcase').find('failure') is not None
EOF
# the shipped rulesets' tests as JUnit: every scenario and golden game passes
"$hr" test "$src/rulesets/lost-cities/tests" --junit "$d/lc.xml" > /dev/null || fail "houserules test rulesets/lost-cities/tests --junit failed"
python3 -c "
import sys, xml.etree.ElementTree as ET
root = ET.parse('$d/lc.xml').getroot()
assert int(root.get('tests')) > 10 and root.get('failures') == '0', root.attrib
" || fail "the JUnit XML of rulesets/lost-cities/tests"

# bad input with --json: status 2, nothing on stdout
"$hr" describe no-such-ruleset --json > "$d/bad.json" 2> /dev/null
[ $? = 2 ] && [ ! -s "$d/bad.json" ] || fail "describe --json of a missing ruleset: status 2 and an empty stdout"

echo "cli json: ok"
