#!/usr/bin/env bash
# table_terminal_test.sh HOUSERULES — tricks at the table seen where a person sees them, in a pseudo-terminal (tmux)
# (issue 32):
#  - "seat 1's hand in the scrollback": two people at one terminal; when seat 2 is asked, nothing of seat 1's hand
#    (nor the card it drew) is on the screen or in the scrollback (capture-pane -S -), and seat 2 is told what
#    seat 1 did as seat 2 may see it ("Since your last turn");
#  - "quit without --log throws the game away": the game is kept in $XDG_STATE_HOME/houserules (mode 700), else
#    ~/.local/state/houserules, the quit message names it, and `play --resume` continues it.
# Skipped (77) without tmux. Fails naming the broken promise.
set -euo pipefail
hr=$(readlink -f "$1")
TMUX_SCROLLBACK=-  # wait_for reads the screen and the whole scrollback: what a person could scroll back to
# shellcheck source=tmux_lib.sh
source "$(dirname "$0")/tmux_lib.sh" table
all() { screen_text; }  # the screen and the whole scrollback
start() {  # start ENV ARGS...: a play in a fresh 120x40 terminal with a long scrollback, ENV as `env` takes it
  local env=$1
  shift
  tmux kill-session -t "$session" 2> /dev/null || true
  tmux new-session -d -s "$session" -x 120 -y 40 "cd $d && env $env $(printf '%q ' "$hr" play "$@"); sleep 60"
  tmux set-option -t "$session" history-limit 5000 > /dev/null
}
hand_of() { grep -E '^Your hand' | tail -1 | sed 's/^[^:]*: *//'; }  # the last "Your hand: ..." line's cards

# 1. Two people at one terminal (Lost Cities, seed 2).
start "XDG_STATE_HOME=$d/state" lost-cities --players human,human --seed 2
wait_for 'Pass the terminal to seat 1'
tmux send-keys -t "$session" Enter
wait_for 'seat 1>'
hand1=$(all | hand_of)
[ -n "$hand1" ] || fail "no hand shown to seat 1"
# one_turn SEAT NEXT: the seat lays its first listed card, then draws from the deck when it has a choice (else the
# draw is played for it), until the terminal is to be passed to seat NEXT
one_turn() {
  tmux send-keys -t "$session" 1 Enter
  for _ in $(seq 600); do
    all | grep -F "Pass the terminal to seat $2" > /dev/null && return 0
    if [ "$(all | grep -c "seat $1>")" -ge 2 ]; then tmux send-keys -t "$session" 'draw deck' Enter; wait_for "Pass the terminal to seat $2"; return 0; fi
    sleep 0.1
  done
  fail "seat $1's turn did not end"
}
one_turn 1 2
sleep 0.3
before_enter=$(all)
tmux send-keys -t "$session" Enter
wait_for 'seat 2>'
at_seat_2=$(all)
shown=()
for card in $hand1; do
  if grep -qw -- "$card" <<< "$before_enter"; then fail "seat 1's card $card is still in the terminal at the pass screen"; fi
  if grep -qw -- "$card" <<< "$at_seat_2"; then shown+=("$card"); fi
done
# of seat 1's hand, seat 2 sees only the card laid face up, in seat 1's turn line told to it
[ "${#shown[@]}" -eq 1 ] || fail "seat 1's cards ${shown[*]} are in the terminal when seat 2 is asked (only the card laid may be)"
played=${shown[0]}
grep -qF 'Since your last turn (as seat 2 sees it):' <<< "$at_seat_2" || fail "seat 2 is not told what happened since its last turn"
grep -qE "^  seat 1 \(human\): .*\b$played\b" <<< "$at_seat_2" || fail "seat 2 is not told that seat 1 laid $played"
if grep -q 'you drew' <<< "$at_seat_2"; then fail "seat 2 reads seat 1's 'you drew'"; fi
# seat 2 plays; back at seat 1, the card seat 1 drew is named to it alone, and was never on seat 2's screen
one_turn 2 1
tmux send-keys -t "$session" Enter
wait_for 'seat 1>'
drawn=$(all | grep -oE '^  seat 1 \(human\): .*you drew [A-Z][0-9x]+' | sed 's/.*you drew //')
[ -n "$drawn" ] || fail "seat 1 is not told the card it drew on its return"
if grep -qw -- "$drawn" <<< "$at_seat_2"; then fail "the card seat 1 drew ($drawn) was on seat 2's screen"; fi
echo "two people at one terminal: seat 1's hand ($hand1) and draw ($drawn) out of seat 2's screen and scrollback: ok"
tmux send-keys -t "$session" quit Enter
wait_for 'The game stops here (quit)'

# 2. quit without --log: the game is kept in the state folder, the message says how to resume it.
start "XDG_STATE_HOME=$d/state" lost-cities --players human,greedy --seed 3
wait_for 'seat 1>'
tmux send-keys -t "$session" 1 Enter
wait_for 'seat 1>' 2
tmux send-keys -t "$session" quit Enter
wait_for 'Resume with: houserules play --resume'
kept=$(all | grep -oE 'Resume with: houserules play --resume [^ ]+' | tail -1 | awk '{print $NF}')
case $kept in "$d/state/houserules/game-"*-3.jsonl) ;; *) fail "the game is not kept in \$XDG_STATE_HOME/houserules: '$kept'" ;; esac
[ -f "$kept" ] || fail "the kept game $kept does not exist"
[ "$(stat -c %a "$d/state/houserules")" = 700 ] || fail "the state folder is not private (mode $(stat -c %a "$d/state/houserules"))"
[ "$(stat -c %a "$kept")" = 600 ] || fail "the kept game is not private (mode $(stat -c %a "$kept"))"
"$hr" replay "$kept" --quiet > /dev/null || fail "the kept game does not replay"
start "XDG_STATE_HOME=$d/state" --resume "$kept"
wait_for 'Resuming'
wait_for 'seat 1>'
tmux send-keys -t "$session" quit Enter
wait_for 'The game stops here (quit)'
grep -q '"type":"resumed"' "$kept" || fail "the resumed game wrote no resumed line in $kept"
echo "quit without --log: kept in $kept (folder mode 700), resumed: ok"

# Without XDG_STATE_HOME: ~/.local/state/houserules.
mkdir -p "$d/home"
start "-u XDG_STATE_HOME HOME=$d/home" lost-cities --players human,greedy --seed 4
wait_for 'seat 1>'
tmux send-keys -t "$session" quit Enter
wait_for 'Resume with: houserules play --resume'
all | grep -F "Resume with: houserules play --resume $d/home/.local/state/houserules/game-" > /dev/null ||
  fail "without XDG_STATE_HOME the game is not kept in ~/.local/state/houserules"
[ "$(stat -c %a "$d/home/.local/state/houserules")" = 700 ] || fail "~/.local/state/houserules is not mode 700"
echo "without XDG_STATE_HOME: kept in ~/.local/state/houserules: ok"
