#!/usr/bin/env bash
# The tools for rule authors fail when they should, with messages naming the file and line (issue 16, item 4):
# expect.sees that does not match, an unknown phase name, two legal actions with the same text, a variant
# whose Lua does not load (`describe` exits non-zero), TOML additions that name nothing; and a house rule's
# golden file replays from any folder; expect.heuristic, expect.violation and expect.describe (issue 15), expect.turn_summary. Usage: author_tools_test.sh <houserules> <source dir>
set -u
hr=$1
src=$2
fixture=$src/tests/fixtures/tiny-draw
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# expect <name> <exit status wanted> <text the output must contain> -- command...
expect() {
  local name=$1 status=$2 text=$3
  shift 4
  local out got
  out=$("$@" 2>&1)
  got=$?
  [ "$got" = "$status" ] || fail "$name: exit status $got, expected $status; output:"$'\n'"$out"
  grep -qF -- "$text" <<<"$out" || fail "$name: the output lacks '$text'; output:"$'\n'"$out"
  echo "ok: $name"
}

# 1. expect.sees: a wrong expectation fails naming the seat, the zone, what it sees and the line.
cat > "$dir/sees.toml" <<TOML
ruleset = "$fixture"
[[scenario]]
name = "wrong sight"
[scenario.zones]
"hand.1" = ["C1", "C2"]
[scenario.expect.sees.2]
"hand.1" = ["C1", "C2"]
TOML
expect "sees: a hidden hand is not seen" 1 "sees.toml:7 'wrong sight': seat 2 sees zone 'hand.1' as [?, ?], expected [C1, C2]" -- \
  "$hr" test "$dir/sees.toml"
cat > "$dir/sees-bad.toml" <<TOML
ruleset = "$fixture"
[[scenario]]
name = "bad seat"
[scenario.expect.sees.first]
"hand.1" = []
[[scenario]]
name = "bad card"
[scenario.expect.sees.1]
"hand.1" = ["Z9"]
[[scenario]]
name = "bad shape"
[scenario.expect]
sees = ["hand.1"]
TOML
expect "sees: a seat key that is not a number" 1 "sees-bad.toml:4 'bad seat': expect.sees.'first': the key is a seat number" -- \
  "$hr" test "$dir/sees-bad.toml"
expect "sees: an unknown card" 1 "sees-bad.toml:9 'bad card': unknown card 'Z9' in expect.sees.1.hand.1" -- "$hr" test "$dir/sees-bad.toml"
expect "sees: not a table" 1 "sees-bad.toml:13 'bad shape': expect.sees must be a table, not an array" -- "$hr" test "$dir/sees-bad.toml"

# 2. phase by name: an unknown name lists the declared phases; a wrong expect.phase names both.
cat > "$dir/phase.toml" <<TOML
ruleset = "$fixture"
[[scenario]]
name = "unknown phase"
phase = "shuffle"
[[scenario]]
name = "wrong phase"
[scenario.expect]
phase = "draw"
[[scenario]]
name = "phase of the wrong type"
phase = true
TOML
expect "phase: an unknown name" 1 "phase.toml:4 'unknown phase': unknown phase 'shuffle' in phase (its phases: play, draw)" -- \
  "$hr" test "$dir/phase.toml"
expect "phase: a wrong expectation" 1 "phase.toml:8 'wrong phase': the phase is 'play' (1), expected 'draw' (2)" -- "$hr" test "$dir/phase.toml"
expect "phase: a wrong type" 1 "phase.toml:11 'phase of the wrong type': phase must be a phase name (a string) or a phase number, not a boolean" -- \
  "$hr" test "$dir/phase.toml"

# 3. Two legal actions with the same text fail the scenario, naming both (the fixture's planted bug).
cat > "$dir/same.toml" <<TOML
extends = "$fixture"
[params]
same_texts = true
TOML
mkdir -p "$dir/same-tests"
cat > "$dir/same-tests/same.toml" <<TOML
ruleset = "../same.toml"
[[scenario]]
name = "a position played from"
actions = ["discard C2"]
[scenario.zones]
"hand.1" = ["C2"]
[[scenario]]
name = "a position the scenario lists legal texts in"
to_move = 2
[scenario.zones]
"hand.2" = ["C3"]
[scenario.expect]
legal = ["play C3"]
TOML
expect "unique texts: a position played from" 1 "same.toml:4 'a position played from': in the starting position: legal actions 2 'play C2' and 102 'play C2' of seat 1 have the same text" -- \
  "$hr" test "$dir/same-tests"
expect "unique texts: a position with expected texts" 1 "same.toml:13 'a position the scenario lists legal texts in': in the starting position: legal actions 3 'play C3' and 103 'play C3' of seat 2" -- \
  "$hr" test "$dir/same-tests"
expect "unique texts: the fixture passes without the bug" 0 "8 passed, 0 failed" -- "$hr" test "$fixture/tests"

# 4. describe loads the scripts: a Lua syntax error or a failing load exits non-zero naming file:line.
printf 'extends = "%s"\nscript = "broken.lua"\n' "$fixture" > "$dir/broken.toml"
printf 'local rules = ...\nfunction rules.score(game, seat)\n  return 1 +\nend\nreturn rules\n' > "$dir/broken.lua"
expect "describe: a syntax error" 2 "broken.lua:4: unexpected symbol near 'end'" -- "$hr" describe "$dir/broken.toml"
printf 'extends = "%s"\nscript = "raises.lua"\n' "$fixture" > "$dir/raises.toml"
printf 'local rules = ...\n\nerror("the rule is not written yet")\n' > "$dir/raises.lua"
expect "describe: an error while loading" 2 "raises.lua:3: the rule is not written yet" -- "$hr" describe "$dir/raises.toml"
expect "describe: the additions with file and line" 0 "counter draws (per seat) = 0" -- env HOUSERULES_PATH="$src/tests/fixtures" "$hr" describe tiny-draw/open
expect "describe: the ruleset's [bots] settings" 0 "Bots: ismcts starts from expand=greedy" -- "$hr" describe lost-cities-rivals
expect "describe --json: the ruleset's [bots] settings" 0 '"ismcts": "expand=greedy"' -- "$hr" describe lost-cities-rivals --json
expect "describe: a visibility override" 0 "visibility deck = top-card" -- "$hr" describe "$fixture/variants/open.toml"
expect "describe: a new parameter with its schema" 0 "[0..10  points per card a seat drew]" -- "$hr" describe "$fixture/variants/open.toml"
expect "describe: declared phases" 0 "Phases: play=1 draw=2" -- "$hr" describe "$fixture"
expect "describe: a ruleset's named rules" 0 "may replace (README, \"For variant authors\"): expedition_ends may_follow move_one_step next_seat resolve_tile round_ends step_of vp_tile_pays" -- \
  "$hr" describe lost-cities-board

# 5. TOML additions that name nothing or clash are errors naming the variant's file and line.
printf 'extends = "%s"\n[visibility]\n"hnad.*" = "public"\n' "$fixture" > "$dir/typo.toml"
expect "visibility: a pattern that matches no zone" 2 "typo.toml:3: [visibility] 'hnad.*' names no zone of the parent" -- \
  "$hr" describe "$dir/typo.toml"
printf 'extends = "%s"\n[visibility]\ndeck = "glass"\n' "$fixture" > "$dir/glass.toml"
expect "visibility: an unknown visibility" 2 "glass.toml:3: visibility of 'deck': unknown visibility 'glass'" -- \
  "$hr" describe "$dir/glass.toml"
printf 'extends = "%s"\n[zones.deck]\nvisibility = "public"\n' "$fixture" > "$dir/twice.toml"
expect "zones: a zone the parent has" 2 "twice.toml:2: the variant adds a zone 'deck', which the parent declares already" -- \
  "$hr" describe "$dir/twice.toml"
printf 'extends = "%s"\n[params]\nbouns = 2\n' "$fixture" > "$dir/newparam.toml"
expect "params: a new parameter needs a schema" 2 "newparam.toml:3: unknown parameter 'bouns'" -- "$hr" describe "$dir/newparam.toml"
printf 'extends = "%s"\n[params]\nbonus = 20\n[schema.bonus]\nmeaning = "points"\nmax = 10\n' "$fixture" > "$dir/range.toml"
expect "params: a new parameter out of its range" 2 "range.toml:3: parameter 'bonus' = 20 is above its maximum 10" -- \
  "$hr" describe "$dir/range.toml"
printf 'extends = "%s"\n[counters.draws]\nper_seat = "yes"\n' "$fixture" > "$dir/counter.toml"
expect "counters: a wrong type" 2 "counter.toml:3: counters.draws.per_seat must be true or false" -- "$hr" describe "$dir/counter.toml"

# 6. A house rule's golden file names its variant relative to itself: recorded from one folder, it
# replays from any other.
mkdir -p "$dir/house/tests/golden" "$dir/elsewhere"
printf 'extends = "%s"\n[params]\nhand_size = 2\n' "$fixture" > "$dir/house/small-hands.toml"
(cd "$dir" && "$hr" play house/small-hands.toml --players random,random --seed 7 --log house/tests/golden/game.jsonl >/dev/null) ||
  fail "golden: play --log failed"
grep -qF '"ruleset":"house/small-hands.toml"' "$dir/house/tests/golden/game.jsonl" || fail "golden: the log names the rule as typed"
(cd "$dir" && "$hr" test --update house/tests >/dev/null) || fail "golden: --update failed"
grep -qF '"ruleset":"../../small-hands.toml"' "$dir/house/tests/golden/game.jsonl" ||
  fail "golden: --update did not name the variant relative to the golden file: $(head -c 300 "$dir/house/tests/golden/game.jsonl")"
expect "golden: replays from another folder" 0 "1 passed, 0 failed" -- bash -c "cd '$dir/elsewhere' && '$hr' test ../house/tests"
# 9. expect.heuristic and expect.violation (issue 15: what mutation testing of a heuristic and of invariants
#    needs): a wrong value or message fails naming the seat, both values and the line; wrong keys are errors.
lc=$src/rulesets/lost-cities
# wrong_keys <key> <a right value> <a wrong value> <name>: three scenarios with malformed expect.<key> tables (a
# key that is not a seat, a value of the wrong type, a seat the game does not have)
wrong_keys() {
  printf '[[scenario]]\nname = "bad seat key"\n[scenario.expect]\n%s = { first = %s }\n' "$1" "$2"
  printf '[[scenario]]\nname = "%s"\n[scenario.expect]\n%s = { 1 = %s }\n' "$4" "$1" "$3"
  printf '[[scenario]]\nname = "seat out of range"\n[scenario.expect]\n%s = { 3 = %s }\n' "$1" "$2"
}
cat > "$dir/estimate.toml" <<TOML
ruleset = "$lc"
[[scenario]]
name = "wrong estimate"
to_move = 1
[scenario.zones]
"hand.1" = ["Y4", "Y6", "Yx", "B5", "G9", "R2", "W7", "Wx"]
"hand.2" = ["B2", "B3", "B4", "Bx", "G7", "R5", "R6", "W3"]
"expedition.1.yellow" = ["Yx", "Y5"]
"expedition.1.green" = ["G8"]
"expedition.2.red" = ["R7", "R8"]
"expedition.2.white" = ["Wx", "W2", "W4", "W5", "W6", "W8", "W9"]
"discard.blue" = ["B6"]
"deck" = ["G2", "G3", "G4", "G5", "G6", "Y3", "W10"]
[scenario.expect]
heuristic = { 1 = -9.6, 2 = 31.8 }
TOML
wrong_keys heuristic 0 '"high"' "not a number" >> "$dir/estimate.toml"
expect "heuristic: a wrong value names the seat and both values" 1 \
  "estimate.toml:15 'wrong estimate': the heuristic of seat 2 is 31.8500, expected 31.8000 (within 0.001)" -- "$hr" test "$dir/estimate.toml"
"$hr" test "$dir/estimate.toml" 2>&1 | grep -q "heuristic of seat 1" && fail "heuristic: seat 1's right value (-9.6) was reported"
expect "heuristic: a key that is not a seat" 1 "'bad seat key': expect.heuristic.'first': the key is a seat number" -- "$hr" test "$dir/estimate.toml"
expect "heuristic: a value that is not a number" 1 "'not a number': expect.heuristic.1 must be a number, not a string" -- "$hr" test "$dir/estimate.toml"
expect "heuristic: a seat the game does not have" 1 "'seat out of range': expect.heuristic" -- "$hr" test "$dir/estimate.toml"
cat > "$dir/no-estimate.toml" <<TOML
ruleset = "$fixture"
[[scenario]]
name = "no heuristic"
[scenario.expect]
heuristic = { 1 = 0 }
TOML
expect "heuristic: a ruleset without the hook" 1 "no-estimate.toml:5 'no heuristic': the ruleset has no heuristic hook (expect.heuristic.1)" -- \
  "$hr" test "$dir/no-estimate.toml"
# one scenario on a table whose blue expedition holds Y5: name, then the expectation
broken() { printf '[[scenario]]\nname = "%s"\n[scenario.zones]\n"expedition.1.blue" = ["B3", "Y5"]\n[scenario.expect]\nviolation = %s\n' "$1" "$2"; }
{
  printf 'ruleset = "%s"\n[[scenario]]\nname = "holds, but a violation is expected"\n[scenario.expect]\nviolation = "lies on"\n' "$lc"
  broken "broken, but none is expected" false
  broken "another violation" '"breaks the rule of play"'
  broken "the right violation" '"Y5 lies on expedition.1.blue"'
  printf '[[scenario]]\nname = "true"\n[scenario.expect]\nviolation = true\n'
} > "$dir/violation.toml"
expect "violation: expected but none" 1 "violation.toml:5 'holds, but a violation is expected': the invariants hold, expected a violation containing 'lies on'" -- \
  "$hr" test "$dir/violation.toml"
expect "violation: none expected" 1 "violation.toml:11 'broken, but none is expected': the invariants report 'Y5 lies on expedition.1.blue', expected none broken" -- \
  "$hr" test "$dir/violation.toml"
expect "violation: another message" 1 "'another violation': the invariants report 'Y5 lies on expedition.1.blue', which does not contain 'breaks the rule of play'" -- \
  "$hr" test "$dir/violation.toml"
expect "violation: true is refused" 1 "'true': expect.violation = true: write a text the message must contain instead" -- "$hr" test "$dir/violation.toml"
expect "violation: the right message passes" 1 "1 passed, 4 failed" -- "$hr" test "$dir/violation.toml"
# 10. expect.describe (issue 15: what a player reads is tested too): a text the table does not contain fails
#     naming the seat and the line, and shows the table; wrong keys and values are errors.
lcr=$src/rulesets/lost-cities-rivals
cat > "$dir/table.toml" <<TOML
ruleset = "$lcr"
players = 2
[[scenario]]
name = "the right line"
[scenario.expect]
describe = { 2 = "Seat 2 (you): 18 coins, score 18" }
[[scenario]]
name = "a wrong line"
[scenario.expect]
describe = { 1 = "Seat 1 (you): 17 coins" }
TOML
wrong_keys describe '"Seat"' 18 "not a text" >> "$dir/table.toml"
expect "describe: a missing text names the seat and the line, and shows the table" 1 \
  "table.toml:10 'a wrong line': the table seat 1 reads does not contain 'Seat 1 (you): 17 coins':" -- "$hr" test "$dir/table.toml"
expect "describe: the table is shown" 1 "Seat 1 (you): 18 coins, score 18" -- "$hr" test "$dir/table.toml"
expect "describe: a key that is not a seat" 1 "'bad seat key': expect.describe.'first': the key is a seat number" -- "$hr" test "$dir/table.toml"
expect "describe: a value that is not a text" 1 "'not a text': expect.describe.1 must be a string" -- "$hr" test "$dir/table.toml"
expect "describe: a seat the game does not have" 1 "'seat out of range': expect.describe" -- "$hr" test "$dir/table.toml"
expect "describe: the right line passes" 1 "1 passed, 4 failed" -- "$hr" test "$dir/table.toml"
# 11. expect.turn_summary: the line `play` prints for the scenario's last turn, as the person at a seat reads it.
#     Seat 2 must not read the card seat 1 drew from the deck (secrets are the game); no action: no turn to read.
cat > "$dir/turn.toml" <<TOML
ruleset = "$lc"
[[scenario]]
name = "seat 2 reads the card seat 1 drew"
to_move = 1
actions = ["discard R2", "draw deck"]
[scenario.zones]
"hand.1" = ["Y4", "Y6", "Yx", "B5", "G9", "R2", "W7", "Wx"]
"deck" = ["G2", "G3", "W10"]
[scenario.expect]
turn_summary = { 1 = "you drew W10", 2 = "W10" }
[[scenario]]
name = "no action"
[scenario.expect]
turn_summary = { 1 = "drew" }
TOML
wrong_keys turn_summary '"drew"' 18 "not a text" >> "$dir/turn.toml"
expect "turn_summary: the other seat's line does not name the drawn card" 1 \
  "turn.toml:10 'seat 2 reads the card seat 1 drew': the line of seat 1's turn ('discard R2', 'draw deck') as seat 2 reads it does not contain 'W10':" -- "$hr" test "$dir/turn.toml"
"$hr" test "$dir/turn.toml" 2>&1 | grep "as seat 1 reads it" > /dev/null && fail "turn_summary: seat 1's right line (you drew W10) was reported"
expect "turn_summary: no action, no turn" 1 "'no action': expect.turn_summary.1 reads the line of the last turn, but the scenario plays no action" -- "$hr" test "$dir/turn.toml"
expect "turn_summary: a key that is not a seat" 1 "'bad seat key': expect.turn_summary.'first': the key is a seat number" -- "$hr" test "$dir/turn.toml"
expect "turn_summary: a value that is not a text" 1 "'not a text': expect.turn_summary.1 must be a string" -- "$hr" test "$dir/turn.toml"
echo "all author-tool checks passed"
