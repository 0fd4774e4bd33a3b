#!/usr/bin/env bash
# expect.legal_actions (issue 35): the exact list of the legal actions' texts, in any order. A right list in
# another order passes; a wrong one fails naming the line, the texts missing, the ones not listed and the
# whole list; an empty list means "no legal action". Also: Lost Cities' draw phase after a discard is named
# "draw" (a phase name over a range), and `describe` shows the range.
# Usage: legal_actions_scenario_test.sh <houserules> <source dir>
set -u
hr=$1
src=$(realpath "$2")
ruleset=$src/rulesets/lost-cities
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

cat > "$dir/right.toml" <<TOML
ruleset = "$ruleset"
[[scenario]]
name = "the draws after discarding blue, in another order and case"
to_move = 1
actions = ["discard B5"]
[scenario.zones]
"hand.1" = ["Y4", "Y6", "Yx", "B5", "G9", "R2", "W7", "Wx"]
"discard.yellow" = ["Y2"]
"discard.blue" = ["B7"]
[scenario.expect]
phase = "draw"
legal_actions = ["DRAW  Y", "draw deck"]
TOML
expect "a right list passes" 0 "1 passed" -- "$hr" test "$dir/right.toml"

cat > "$dir/wrong.toml" <<TOML
ruleset = "$ruleset"
[[scenario]]
name = "wrong draws"
to_move = 1
actions = ["discard B5"]
[scenario.zones]
"hand.1" = ["Y4", "Y6", "Yx", "B5", "G9", "R2", "W7", "Wx"]
"discard.yellow" = ["Y2"]
"discard.blue" = ["B7"]
[scenario.expect]
legal_actions = ["draw deck", "draw B"]
TOML
expect "a wrong list fails, naming what is missing and what is not listed" 1 \
  "wrong.toml:11 'wrong draws': the legal actions of seat 1 are not the list expected; missing (not legal): ['draw B']; legal but not listed: ['draw Y']; the legal actions: ['draw deck', 'draw Y']" \
  -- "$hr" test "$dir/wrong.toml"

cat > "$dir/short.toml" <<TOML
ruleset = "$ruleset"
[[scenario]]
name = "a list too short"
to_move = 1
actions = ["discard B5"]
[scenario.zones]
"hand.1" = ["Y4", "Y6", "Yx", "B5", "G9", "R2", "W7", "Wx"]
"discard.yellow" = ["Y2"]
[scenario.expect]
legal_actions = []
TOML
expect "an empty list fails when actions are legal" 1 "legal but not listed: ['draw deck', 'draw Y']" -- "$hr" test "$dir/short.toml"

cat > "$dir/bad.toml" <<TOML
ruleset = "$ruleset"
[[scenario]]
name = "not a list"
[scenario.expect]
legal_actions = "draw deck"
TOML
expect "a value that is not a list names the key" 1 "expect.legal_actions" -- "$hr" test "$dir/bad.toml"

expect "describe shows the draw phase's range" 0 "draw=10..15" -- "$hr" describe "$ruleset"
echo "OK"
