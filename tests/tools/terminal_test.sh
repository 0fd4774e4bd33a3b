#!/usr/bin/env bash
# terminal_test.sh HOUSERULES — a human game of each ruleset through a pseudo-terminal (tmux), as a person
# plays it (issue 12): colour on a terminal, hands sorted, one line per opponent turn, line editing (the Up
# arrow recalls a line), `help` naming the rules' README, undo, Ctrl-C writing the `stopped` line, and `play --resume` continuing the game;
# every transcript still replays. Skipped (77) without tmux. Fails naming the broken promise.
set -euo pipefail
hr=$(readlink -f "$1")
# shellcheck source=tmux_lib.sh
source "$(dirname "$0")/tmux_lib.sh" terminal  # wait_for TEXT [COUNT], fail (prefixed with the ruleset)
screen() { tmux capture-pane -p -e -t "$session" -S -400; }  # with the colours' escape sequences
start() {  # start ARGS...: a play in a fresh 140x50 terminal
  tmux kill-session -t "$session" 2> /dev/null || true
  tmux new-session -d -s "$session" -x 140 -y 50 "cd $d && $(printf '%q ' "$hr" play "$@"); sleep 30"
  tmux set-option -t "$session" history-limit 5000 > /dev/null
}
prompts() { tmux capture-pane -p -t "$session" -S -400 | grep -c 'seat 1>' || true; }

for ruleset in lost-cities lost-cities-board lost-cities-rivals lost-valley; do
  FAIL_PREFIX=$ruleset
  log="$ruleset.jsonl"
  players=human,greedy
  [ "$ruleset" = lost-valley ] && players=human,random,random
  start "$ruleset" --players "$players" --seed 5 --log "$log"
  wait_for 'seat 1>'
  out=$(screen)
  # colour: the prompt in bold; card names in their colour where cards have one
  grep -qF $'\e[1mseat 1>' <<< "$out" || fail "the prompt is not bold on a terminal"
  if [ "$ruleset" != lost-valley ]; then
    grep -qE $'\e\\[(33|34|97|32|31)m[YBWGR]' <<< "$out" || fail "no card name in colour"
  fi
  if [ "$ruleset" = lost-cities ] || [ "$ruleset" = lost-cities-board ]; then
    hand=$(tmux capture-pane -p -t "$session" | grep -E '^(Your hand|  hand):' | head -1 | sed 's/.*: //')
    sorted=$(tr ' ' '\n' <<< "$hand" | awk '{c=index("YBWGR", substr($0,1,1)); v=substr($0,2); if (v=="x") v=0; printf "%d %02d %s\n", c, v, $0}' | sort | awk '{print $3}' | paste -sd' ')
    [ -n "$hand" ] && [ "$hand" = "$sorted" ] || fail "the hand '$hand' is not sorted by colour and value ('$sorted')"
  fi
  # line editing: a refused line, then the Up arrow brings it back (refused again)
  tmux send-keys -t "$session" 'frobnicate' Enter
  wait_for 'Not legal' 1
  tmux send-keys -t "$session" Up Enter
  wait_for 'Not legal' 2
  wait_for 'seat 1> frobnicate' 2  # without line editing the Up arrow would come out as ^[[A
  # help names where the ruleset's rules are written (its README, as the binary finds it: issue 38)
  tmux send-keys -t "$session" help Enter
  wait_for 'The rules: '
  page=$(tmux capture-pane -p -t "$session" -S -400 | grep -o 'The rules: .*' | head -1 | sed 's/^The rules: //; s/ *$//')
  [[ "$page" == */rulesets/$ruleset/README.md ]] && [ -f "$page" ] || fail "help names '$page', not this ruleset's README"
  # two decisions, then undo back to the first of them
  decision=1
  [ "$ruleset" = lost-valley ] && decision="end turn"  # a Lost Valley turn is many actions: end it, the others play
  before=$(prompts)
  tmux send-keys -t "$session" "$decision" Enter
  for _ in $(seq 600); do [ "$(prompts)" -gt "$before" ] && break; sleep 0.1; done
  before=$(prompts)
  tmux send-keys -t "$session" "$decision" Enter
  for _ in $(seq 600); do [ "$(prompts)" -gt "$before" ] && break; sleep 0.1; done
  # the opponent's turn as one line in the ruleset's words (its turn_summary hook), not the generic account
  opponent=$(tmux capture-pane -p -t "$session" -S -400 | grep -E '^  seat 2 \((greedy|random)\): ' | head -1)
  [ -n "$opponent" ] || fail "no one-line summary of the opponent's turn"
  case $ruleset in
    lost-cities) want='(played [A-Z][0-9x]+ \(|discarded [A-Z][0-9x]+;)' ;;
    lost-cities-board) want='(played [A-Z][0-9x]+: |discarded [A-Z][0-9x]+;)' ;;
    lost-cities-rivals) want='(revealed [A-Z][0-9xs]+|opened an auction at|bid [0-9]|passed|won the auction for)' ;;
    lost-valley) want='(moved to|explored|panned|mined|fished|felled|hunted|event at|built|bought|ended the turn)' ;;
  esac
  grep -qE "$want" <<< "$opponent" || fail "the opponent's line '$opponent' does not say what happened ($want)"
  if grep -qE '\(now [0-9-]+\)|end turn' <<< "$opponent"; then fail "the opponent's line '$opponent' is the generic account"; fi
  if [ "$ruleset" = lost-cities ]; then  # the human's own draw, named to them only
    tmux capture-pane -p -t "$session" -S -400 | grep -E '^  seat 1 \(human\): .*you drew [A-Z][0-9x]+ from the deck' > /dev/null ||
      fail "no 'you drew ...' on the human's own turn line"
  fi
  # undo: back to the first decision, unless a card was shown since (the forced draw, the opponent's card): then
  # refused with the reason, and the transcript has no undo line (issue 32)
  tmux send-keys -t "$session" undo Enter
  for _ in $(seq 600); do
    tmux capture-pane -p -t "$session" -S -400 | grep -E 'Undone: back to your decision|Undo refused: since' > /dev/null && break
    sleep 0.1
  done
  if tmux capture-pane -p -t "$session" -S -400 | grep 'Undone: back to your decision' > /dev/null; then
    grep -q '"type":"undo"' "$d/$log" || fail "the transcript has no undo line"
  else
    wait_for 'Undo refused: since that decision you have seen'
    if grep -q '"type":"undo"' "$d/$log"; then fail "a refused undo wrote an undo line"; fi
  fi
  # Ctrl-C stops the game and writes the stopped line
  tmux send-keys -t "$session" C-c
  wait_for 'The game stops here (interrupted'
  grep -q '"reason":"interrupted' "$d/$log" || fail "Ctrl-C wrote no stopped line"
  "$hr" replay "$d/$log" --quiet > /dev/null || fail "the transcript with undo and Ctrl-C does not replay"
  plies=$(grep -c '"type":"action"' "$d/$log")
  # resume: the game goes on from where it stopped; one more decision, then quit
  start --resume "$log"
  wait_for 'Resuming'
  wait_for 'seat 1>'
  tmux send-keys -t "$session" 1 Enter
  sleep 1
  tmux send-keys -t "$session" quit Enter
  wait_for 'The game stops here (quit)'
  grep -q '"type":"resumed"' "$d/$log" || fail "the resumed game wrote no resumed line"
  [ "$(grep -c '"type":"action"' "$d/$log")" -gt "$plies" ] || fail "the resumed game added no action"
  "$hr" replay "$d/$log" --quiet > /dev/null || fail "the resumed transcript does not replay"
  echo "$ruleset: colour, sorted hand, summaries ($opponent), line editing, undo, Ctrl-C and resume: ok"
done

# NO_COLOR and a pipe: no escape sequences at all
ruleset=no-colour
tmux kill-session -t "$session" 2> /dev/null || true
tmux new-session -d -s "$session" -x 140 -y 50 "cd $d && NO_COLOR=1 $(printf '%q ' "$hr") play lost-cities --players human,greedy --seed 5; sleep 30"
wait_for 'seat 1>'
if screen | grep $'\e\\[3[0-9]m' > /dev/null; then fail "colour despite NO_COLOR"; fi
echo quit | "$hr" play lost-cities --players human,greedy --seed 5 > "$d/pipe.txt"
if grep -q $'\e' "$d/pipe.txt"; then fail "escape sequences in a pipe"; fi
echo "NO_COLOR and pipes: plain text: ok"
