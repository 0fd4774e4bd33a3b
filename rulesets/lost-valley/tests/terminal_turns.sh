#!/usr/bin/env bash
# terminal_turns.sh HOUSERULES — Lost Valley's turn summaries as a person at a terminal reads them (issue 33), in a
# pseudo-terminal (tmux, 120 columns, as terminal_map.sh): `houserules play lost-valley --players human,random,random
# --seed 5`; the person ends their first turn, and the two bots' turns are summarised before the next prompt. Asserts
# that the person's own turn reads "ended the turn"; that every summary line names its seat and player; that a
# hunt shows its dice, a move that laid tiles counts them by kind ("laid 3 river tiles, 1 triangle tile"), and a
# whisky says what it bought; and that no line is wider than the terminal. Skipped (77) without tmux; fails naming
# the promise and showing the screen.
set -euo pipefail
hr=$(readlink -f "$1")
TMUX_SCROLLBACK=-2000 TMUX_WAIT=900
# shellcheck source=../../../tests/tools/tmux_lib.sh
source "$(dirname "$0")/../../../tests/tools/tmux_lib.sh" lv-turns
tmux new-session -d -s "$session" -x 120 -y 60 "cd $d && $(printf '%q ' "$hr" play lost-valley --players human,random,random --seed 5); sleep 30"
tmux set-option -t "$session" history-limit 20000 > /dev/null
wait_for 'seat 1>'
# several turns: end each of the person's turns at once, so the bots' turns are summarised in between
for turn in 2 3 4 5 6 7 8; do
  tmux send-keys -t "$session" 'end turn' Enter
  wait_for 'seat 1>' "$turn"
done
screen=$(tmux capture-pane -p -J -t "$session" -S -20000)
# a summary continues on lines indented by six spaces: join them to their summary
summaries=$(awk '/^  seat [0-9] \((human|random)\): / { if (line) print line; line = $0; next }
                 /^      [^ ]/ && line { sub(/^ +/, " "); line = line $0; next }
                 { if (line) print line; line = "" }
                 END { if (line) print line }' <<< "$screen")
[ -n "$summaries" ] || fail "no turn summary line (  seat N (player): ...)"
grep -qE '^  seat 1 \(human\): ended the turn' <<< "$summaries" || fail "the person's turn does not read 'ended the turn'"
grep -qE '^  seat 2 \(random\): ' <<< "$summaries" || fail "no summary of seat 2's turn"
grep -qE '^  seat 3 \(random\): ' <<< "$summaries" || fail "no summary of seat 3's turn"
# every hunt shows its dice; every move that laid tiles counts them, with their kind
bad=$(grep -oE 'hunted at [0-9]+,[0-9]+[ud][^;]*' <<< "$summaries" | grep -vE ' \(dice [0-9]+ against [0-9]+: (missed|a kill)\)' || true)
[ -z "$bad" ] || fail "a hunt without its dice: $bad"
grep -qE 'hunted at [0-9]+,[0-9]+[ud] \(dice' <<< "$summaries" || fail "no hunt in these turns (seed 5 has some)"
bad=$(grep -oE 'moved to [0-9]+,[0-9]+ \([^)]*\)' <<< "$summaries" | grep -vE '^moved to [0-9]+,[0-9]+ \(laid ([0-9]+ (river|land|triangle) tiles?|the source)(, ([0-9]+ (river|land|triangle) tiles?|the source))*\)$' || true)
[ -z "$bad" ] || fail "a move's tiles are not counted with their kind: $bad"
grep -qE 'laid [0-9]+ (river|land) tiles?' <<< "$summaries" || fail "no move that laid tiles in these turns (seed 5 has some)"
grep -qE 'drank a whisky for (move|action)' <<< "$summaries" || fail "no whisky drunk, or not saying what it bought"
width=$(tmux capture-pane -p -t "$session" -S -20000 | awk '{ if (length > m) m = length } END { print m }')
[ "$width" -le 120 ] || fail "a line is $width columns wide (more than 120)"
tmux send-keys -t "$session" C-c
echo "ok: Lost Valley's turn summaries at a terminal name the seat, count the tiles, show the dice and the whisky"
