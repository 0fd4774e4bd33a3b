#!/usr/bin/env bash
# terminal_map.sh HOUSERULES — what a person at a terminal sees of Lost Valley's map (issue 33), in a pseudo-terminal
# (tmux, 120 columns, as tests/tools/terminal_test.sh plays the other rulesets): `houserules play lost-valley
# --players human,greedy,random --seed 5`, then `move 2,0`. Asserts the coordinates (r=<r> on both rims of every
# intersection row, the q of every intersection on the top and bottom rims), the tile borders (the start tile's
# dry face between its sides /H\, its fords = and the river's crossings x), a store never hidden by the prospectors
# standing on it ($ then * and the count listed below), the candidate placements of the river tile lettered on the
# map and listed, and that no line is wider than the terminal. Skipped (77) without tmux; fails naming the promise.
set -euo pipefail
hr=$(readlink -f "$1")
# shellcheck source=../../../tests/tools/tmux_lib.sh
source "$(dirname "$0")/../../../tests/tools/tmux_lib.sh" lv-map
tmux new-session -d -s "$session" -x 120 -y 60 "cd $d && $(printf '%q ' "$hr" play lost-valley --players human,greedy,random --seed 5); sleep 30"
tmux set-option -t "$session" history-limit 5000 > /dev/null
wait_for 'seat 1>'
screen=$(tmux capture-pane -p -t "$session" -S -400)
# coordinates: every intersection row labelled on both rims; q on the top and bottom rims at every step
for r in 0 1 2 3; do
  grep -qE "^r=$r +[+.\$].* r=$r\$" <<< "$screen" || fail "the row of r=$r is not labelled on both rims"
done
grep -qE '^q= +0   1   2   3$' <<< "$screen" || fail "no q rim with every column (0 1 2 3)"
[ "$(grep -cE '^q= ' <<< "$screen")" -ge 2 ] || fail "q is not on both the top and the bottom rim"
# the bottom rim's q stands under its intersection of row 0: the store 1,0 in the column of its label 1
row0=$(grep -E '^r=0 ' <<< "$screen" | head -1)
rim=$(grep -E '^q= ' <<< "$screen" | tail -1)
col_store=$(awk -v s="$row0" 'BEGIN { print index(s, "$") }')
col_one=$(awk -v s="$rim" 'BEGIN { print index(s, " 1 ") + 1 }')
[ "$col_store" -eq "$col_one" ] || fail "the store 1,0 (column $col_store) is not under q=1 (column $col_one)"
# borders: the start tile's dry face H between its sides, its fords and the river's crossings
grep -qE '^ +/H\\$' <<< "$screen" || fail "the start tile's dry face is not drawn between its borders /H\\"
grep -qF 'xR=R=Rx' <<< "$screen" || fail "the start tile's river row (crossings x, fords =) is not drawn"
# the store under three prospectors: $ stays, * follows, the count is listed
grep -qF '$*' <<< "$screen" || fail "the store is hidden under its prospectors"
grep -qF '1,0: 3 prospectors (seats 1, 2, 3)' <<< "$screen" || fail "no count of the prospectors on the store"
# one move that draws a river tile with two placements: both lettered and listed
tmux send-keys -t "$session" 'move 2,0' Enter
wait_for 'Where the tile may go'
screen=$(tmux capture-pane -p -t "$session" -S -400)
grep -qF 'a = lay 2,0 r1 (1,0d + 1,1u' <<< "$screen" || fail "the candidate a is not listed with its faces"
grep -qE '^ +xR=R=Rx\*$' <<< "$screen" || fail "the candidate faces are not marked on the map (xR=R=Rx*)"
width=$(tmux capture-pane -p -t "$session" -S -400 | awk '{ if (length > m) m = length } END { print m }')
[ "$width" -le 120 ] || fail "a line is $width columns wide (more than 120)"
tmux send-keys -t "$session" C-c
echo "ok: the map at a terminal has coordinates on its rims, tile borders, the store and the candidates in sight"
