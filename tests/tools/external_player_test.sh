#!/usr/bin/env bash
# external_player_test.sh HOUSERULES SOURCE_DIR — the external player protocol (docs/external-players.md):
# the example bot plays a whole Lost Cities match against greedy (play and simulate), the transcript replays,
# the bot receives hello, decide and end messages as documented, and each misbehaviour (exiting, writing
# garbage, an illegal action, an index out of range, a timeout, a program that does not exist) stops the
# game with a message naming the seat, the program and what went wrong. Fails naming the broken promise.
set -euo pipefail
hr=$1
src=$2
bots=$src/tests/fixtures/external-bots
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# 1. The example bot plays a whole match; its stderr passes through; the transcript replays.
bot="cmd:python3 $src/examples/external-bot/bot.py"
"$hr" play lost-cities --players "$bot,greedy" --seed 5 --quiet --log "$d/game.jsonl" > "$d/out.txt" 2> "$d/err.txt" ||
  fail "the example bot's match failed: $(cat "$d/err.txt")"
grep -q "^Result: seat 1 (cmd:python3 .*bot.py) -\?[0-9]* \[place [12]\], seat 2 (greedy)" "$d/out.txt" ||
  fail "no result line for the example bot's match: $(cat "$d/out.txt")"
grep -q "bot.py: the match is over, scores \[" "$d/err.txt" || fail "the bot's stderr (its end message) did not pass through"
"$hr" replay "$d/game.jsonl" --quiet > /dev/null || fail "the example bot's game does not replay"
# in the second seat, and in simulate (two games, so the bot is started and stopped per game)
"$hr" simulate lost-cities --players "greedy,$bot" --games 2 --seed 3 > "$d/sim.txt" 2> "$d/sim_err.txt" ||
  fail "simulate with the example bot failed: $(cat "$d/sim.txt" "$d/sim_err.txt")"
grep -q "^2 completed games, 0 failed" "$d/sim.txt" || fail "simulate did not complete both games: $(cat "$d/sim.txt")"

# 2. What a bot receives: a hello, decide messages whose moves joined are the whole game, an end.
"$hr" play lost-cities --players "random,cmd:python3 $bots/first_index.py $d/seen.jsonl" --seed 2 --quiet \
  --log "$d/recorded.jsonl" > /dev/null || fail "the recording bot's match failed"
python3 - "$d/seen.jsonl" "$d/recorded.jsonl" <<'PY' || fail "the messages a bot receives are not as documented"
import json, sys
seen = [json.loads(l) for l in open(sys.argv[1])]
game = [json.loads(l) for l in open(sys.argv[2])]
hello, decides, end = seen[0], [m for m in seen if m["type"] == "decide"], seen[-1]
assert hello["type"] == "hello" and hello["protocol"] == 1 and hello["seat"] == 2 and hello["seats"] == 2, hello
assert hello["ruleset"] == "lost-cities" and hello["params"]["hand_size"] == 8 and hello["move_time"] == 10
assert hello["layout"]["components"]["Y7"]["value"] == 7, hello["layout"]["components"]["Y7"]
assert end["type"] == "end" and len(end["match_scores"]) == 2 and sorted(end["places"])[0] == 1, end
assert all(m["type"] in ("decide",) for m in seen[1:-1])
d = decides[0]  # seat 1 has played a card and drawn one: 60 - 16 dealt - 1 drawn in the deck
obs = d["observation"]
assert obs["seat"] == 2 and obs["to_move"] == 2 and len(obs["zones"]["hand.2"]["cards"]) == 8
assert None not in obs["zones"]["hand.2"]["cards"], "the bot's own hand is hidden from it"
assert obs["zones"]["hand.1"]["cards"] == [None] * 8, "the opponent's hand is shown"
assert obs["zones"]["deck"]["count"] == 43 and obs["zones"]["deck"]["visibility"] == "hidden"
assert d["legal"] and all(isinstance(t, str) for t in d["legal"])
# the moves of every message, joined, are the transcript's actions (seat and text), in order
moves = [m for msg in seen if "moves" in msg for m in msg["moves"]]
actions = [{"seat": a["seat"], "action": a["action"]} for a in game if a["type"] == "action"]
assert moves == actions, (len(moves), len(actions))
# each answer ({"index": 0}) was the first legal action of its decide message
mine = [a["action"] for a in actions if a["seat"] == 2]
assert mine == [m["legal"][0] for m in decides], "the answers are not the actions played"
PY

# 3. Misbehaviours: exit status 1, the message on stderr names the seat, the program and the fault.
expect() {  # expect NAME PLAYERS PATTERN...: the game fails with every PATTERN in its error output
  local name=$1 players=$2 status=0
  shift 2
  "$hr" play lost-cities --players "$players" --seed 4 --quiet > "$d/$name.out" 2> "$d/$name.err" || status=$?
  [ "$status" -ne 0 ] || fail "$name: the game did not fail"
  for pattern in "$@"; do
    grep -q -- "$pattern" "$d/$name.err" || fail "$name: no '$pattern' in the error: $(cat "$d/$name.err")"
  done
  echo "ok: $name: $(head -c 300 "$d/$name.err")"
}
expect exits "greedy,cmd:sh $bots/exits.sh" \
  "error: seat 2, external player 'sh .*exits.sh': the program exited with status 3 before answering"
expect garbage "cmd:sh $bots/garbage.sh,greedy" \
  "seat 1, external player 'sh .*garbage.sh': wrote a line that is not JSON: 'play my best card'" \
  'answer with one line {"action"'
expect illegal "cmd:python3 $bots/illegal.py,greedy" \
  "seat 1, external player 'python3 .*illegal.py': answered 'play Z99', which is not a legal action" \
  "(you do not hold Z99); legal now ([0-9]* in all): 'play " "'discard "
expect bad-index "cmd:python3 $bots/bad_index.py,greedy" \
  "seat 1, external player 'python3 .*bad_index.py': answered index '14', which is not a number from 0 to 13 (there are 14 legal actions)"
start=$(date +%s)
expect timeout "greedy,cmd:time=0.5:sh $bots/slow.sh" \
  "seat 2, external player 'sh .*slow.sh': did not answer within 0.5 s (its move time"
[ $(( $(date +%s) - start )) -lt 20 ] || fail "timeout: the slow program was not stopped at its move time"
sleep 0.2
! pgrep -f "sleep 31.25" > /dev/null || fail "timeout: the slow program's child (sleep) was left running"
# no shell runs the command: $HOME and the ';' reach echo as they are
expect no-shell "cmd:echo \$HOME;done,greedy" "wrote a line that is not JSON: '\$HOME;done'"
status=0
"$hr" play lost-cities --players "cmd:no-such-program-x,greedy" --quiet > /dev/null 2> "$d/missing.err" || status=$?
[ "$status" -eq 2 ] || fail "a missing program: exit status $status, expected 2"
grep -q "seat 1, external player 'no-such-program-x': cannot start 'no-such-program-x': No such file or directory" \
  "$d/missing.err" || fail "a missing program: $(cat "$d/missing.err")"
status=0
"$hr" play lost-cities --players "cmd:time=soon:python3 bot.py,greedy" --quiet > /dev/null 2> "$d/time.err" || status=$?
[ "$status" -eq 2 ] && grep -q "the move time must be a number of seconds" "$d/time.err" ||
  fail "a bad move time: status $status, $(cat "$d/time.err")"
# stderr=FILE: the program's standard error goes to the file
"$hr" play lost-cities --players "cmd:stderr=$d/bot.log:python3 $src/examples/external-bot/bot.py,random" --seed 1 \
  --quiet > /dev/null 2> "$d/quiet.err" || fail "stderr=FILE: the game failed: $(cat "$d/quiet.err")"
grep -q "bot.py: the match is over" "$d/bot.log" || fail "stderr=FILE: the bot's stderr is not in the file"
! grep -q "bot.py" "$d/quiet.err" || fail "stderr=FILE: the bot's stderr still reached ours"
echo "external players: ok"
