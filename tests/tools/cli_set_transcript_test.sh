#!/usr/bin/env bash
# cli_set_transcript_test.sh HOUSERULES SOURCE_DIR — `--set name=value` on describe, check, simulate and play
# (checked by the schema, errors naming the override and the rule, recorded in the transcript and replayed);
# a transcript's header parameters checked at replay (a difference names the parameter); a variant given by
# path replays from any folder; simulate flags the games that hit the action cap (summary, --json, report).
source "$(dirname "$0")/cli_test_lib.sh" "$1" "$2"

# --set on describe: the value and its origin
run 0 describe lost-cities --set hand_size=6 --set expedition_cost=15
grep -Eq '^  hand_size = 6 +--set hand_size=6' "$d/out" || { cat "$d/out"; fail "describe --set does not show hand_size = 6 from --set"; }
grep -Eq '^  expedition_cost = 15 ' "$d/out" || fail "describe --set: the second override is not applied"
run 0 describe lost-cities --set letters.yellow=J --json
python3 -c "import json,sys; d=json.load(open('$d/out')); sys.exit(0 if d['params']['letters']['yellow']=='J' and d['overrides']==['letters.yellow=J'] else 1)" \
  || fail "describe --set letters.yellow=J --json"
# the schema's checks, naming the override and the rule
run 2 describe lost-cities --set hand_size=99
grep -q "^error: --set hand_size=99: parameter 'hand_size' = 99 is above its maximum 20" "$d/err" || { cat "$d/err"; fail "hand_size=99 is not refused by the schema's maximum"; }
run 2 describe lost-cities --set hand_size=six
grep -q "parameter 'hand_size' must be an integer, not a string" "$d/err" || { cat "$d/err"; fail "hand_size=six: no type error"; }
run 2 describe lost-cities --set hand_sise=6
grep -q "unknown parameter 'hand_sise'" "$d/err" || { cat "$d/err"; fail "an unknown parameter is not named"; }
run 2 check lost-cities --games 1 --set hand_size
grep -q "give name=value" "$d/err" || { cat "$d/err"; fail "--set without = is not explained"; }
run 2 simulate lost-cities --players random,random --games 1 --set 'colours=["yellow"]' --no-progress
grep -q "fewer than its minimum 2" "$d/err" || { cat "$d/err"; fail "a list below min_items is not refused"; }
# a combination each parameter allows but the rules cannot deal (Rivals: 4 colours, 4 players; the last player
# could be left two starting wagers of one colour) is refused at load, naming the counts; 3 players can be dealt
run 2 check lost-cities-rivals --players 4 --games 1 --set 'colours=["yellow","blue","white","green"]'
grep -q "not enough starting wagers of different colours for 4 players: 4 colours of 2 starting wagers" "$d/err" \
  || { cat "$d/err"; fail "Rivals with 4 colours and 4 players is not refused at load"; }
run 0 check lost-cities-rivals --players 3 --games 2 --set 'colours=["yellow","blue","white","green"]'

# --set changes the game: check and simulate run with it; the reproduce command carries it
run 0 check lost-cities --games 2 --set hand_size=3
run 0 simulate lost-cities --players random,random --games 2 --set hand_size=3 --no-progress --json
python3 -c "import json,sys; d=json.load(open('$d/out')); sys.exit(0 if d['experiment']['overrides']==['hand_size=3'] else 1)" \
  || fail "simulate --set is not in the experiment"

# play --set: recorded in the header, replayed; the header's parameters are checked
run 0 play lost-cities --players random,random --seed 5 --set hand_size=5 --log "$d/g.jsonl" --quiet
head -1 "$d/g.jsonl" | grep -q '"set":\["hand_size=5"\]' || { head -1 "$d/g.jsonl"; fail "the transcript header does not record --set"; }
head -1 "$d/g.jsonl" | grep -q '"hand_size":5' || fail "the transcript's params do not hold hand_size 5"
run 0 replay "$d/g.jsonl" --quiet
# a header whose parameters differ from the rules: an error naming the parameter
python3 - "$d/g.jsonl" "$d/changed.jsonl" <<'EOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
header = json.loads(lines[0])
header['params']['expedition_cost'] = 25
open(sys.argv[2], 'w').write('\n'.join([json.dumps(header)] + lines[1:]) + '\n')
EOF
run 2 replay "$d/changed.jsonl" --quiet
grep -q "changed.jsonl:1: parameter 'expedition_cost' is 25 in the transcript's header but 20 in the rules" "$d/err" \
  || { cat "$d/err"; fail "a changed header parameter is not named"; }
# without its --set the header's hand_size differs from the ruleset's
grep -v '^$' "$d/g.jsonl" | sed '1s/,"set":\["hand_size=5"\]//' > "$d/noset.jsonl"
run 2 replay "$d/noset.jsonl" --quiet
grep -q "parameter 'hand_size' is 5 in the transcript's header but 8" "$d/err" || { cat "$d/err"; fail "a dropped --set is not found"; }

# a variant given by path replays from any folder (ruleset_path is relative to the transcript)
mkdir -p "$d/rules" "$d/games" "$d/elsewhere"
cat > "$d/rules/short.toml" <<EOF
extends = "lost-cities"
name = "short"
description = "one round"
[params]
rounds = 1
EOF
(cd "$d/rules" && "$hr" play ./short.toml --players random,random --seed 2 --log ../games/short.jsonl --quiet > /dev/null) || fail "play ./short.toml"
head -1 "$d/games/short.jsonl" | grep -q '"ruleset_path":"../rules/short.toml"' || { head -1 "$d/games/short.jsonl"; fail "no ruleset_path relative to the transcript"; }
(cd "$d/elsewhere" && "$hr" replay ../games/short.jsonl --quiet > "$d/out" 2> "$d/err") || { cat "$d/err"; fail "a variant's transcript does not replay from another folder"; }
(cd / && "$hr" replay "$d/games/short.jsonl" --quiet > /dev/null 2>&1) || fail "a variant's transcript does not replay from /"

# simulate flags overlong games: the summary line with seeds and the command, --json, the HTML report
"$hr" simulate lost-cities --players random,random --games 4 --seed 1 --max-plies 30 --threads 1 --no-progress \
  --report "$d/r.html" > "$d/sum.txt" 2> /dev/null
[ $? = 1 ] || fail "simulate with games over the cap does not exit 1"
grep -q '^Overlong games: 4 hit the cap of 30 actions (--max-plies), seeds ' "$d/sum.txt" || { cat "$d/sum.txt"; fail "the summary does not flag the overlong games"; }
grep -A1 '^Overlong games' "$d/sum.txt" | grep -q '^  houserules play lost-cities --players random,random --seed ' || fail "no command to reproduce an overlong game"
grep -q 'id="overlong">4 games hit the cap of 30 actions' "$d/r.html" || fail "the report does not flag the overlong games"
"$hr" simulate lost-cities --players random,random --games 4 --seed 1 --max-plies 30 --threads 1 --no-progress --json > "$d/o.json" 2> /dev/null
python3 -c "
import json, sys
d = json.load(open('$d/o.json'))
assert len(d['overlong']) == 4 and all(g['plies'] == 30 and 'houserules play' in g['reproduce'] for g in d['overlong']), d['overlong']
" || fail "simulate --json does not list the overlong games"
"$hr" simulate lost-cities --players random,random --games 4 --seed 1 --threads 1 --no-progress > "$d/sum.txt" 2> /dev/null
grep -q '^Overlong' "$d/sum.txt" && fail "games under the cap are flagged as overlong"

echo "cli --set, transcript headers, overlong games: ok"
