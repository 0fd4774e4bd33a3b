#!/usr/bin/env bash
# terminal_details_test.sh HOUSERULES — small things a person meets at the terminal (issue 37), seen in a
# pseudo-terminal (tmux) 80 columns wide:
#  - "numbered in hand order": the numbered actions follow the hand as it is shown (every play, then every
#    discard, each in the hand's order), on the first turn and again after a card is drawn;
#  - "long refusals wrapped": a refusal longer than the terminal is broken between words at 80 columns (with
#    `capture-pane -J` a line the terminal itself wrapped would come back joined, longer than 80);
#  - "each step says where it went": the board game's turn line gives the card's step and then the arrow's
#    (seed 2: W6 moved the white adventurer to step 2, an arrow; the arrow moved it on to step 3).
# Skipped (77) without tmux. Fails naming the broken promise.
set -euo pipefail
hr=$(readlink -f "$1")
TMUX_SCROLLBACK=- TMUX_JOIN=1  # the screen and scrollback, terminal-wrapped lines joined
# shellcheck source=tmux_lib.sh
source "$(dirname "$0")/tmux_lib.sh" details
all() { screen_text; }
start() {  # start COLUMNS ARGS...: a play in a fresh terminal COLUMNS wide
  local columns=$1
  shift
  tmux kill-session -t "$session" 2> /dev/null || true
  tmux new-session -d -s "$session" -x "$columns" -y 40 "cd $d && NO_COLOR=1 $(printf '%q ' "$hr" play "$@"); sleep 60"
  tmux set-option -t "$session" history-limit 5000 > /dev/null
}
# in_hand_order: the last "Your hand" and action list on the screen agree (plays, then discards, in hand order)
in_hand_order() {
  all | python3 -c '
import re, sys
lines = sys.stdin.read().splitlines()
start = max(i for i, l in enumerate(lines) if l.startswith("Legal actions:"))
hand = [l for l in lines[:start] if l.startswith("Your hand:")][-1].split(":", 1)[1].split()
listed = re.findall(r"(\d+)\) (\w+) (\S+)", " ".join(lines[start + 1:start + 8]))
numbers = [int(n) for n, _, _ in listed]
assert numbers == list(range(1, len(numbers) + 1)), numbers
distinct = list(dict.fromkeys(hand))
for verb in ("play", "discard"):
    cards = [c for _, v, c in listed if v == verb]
    assert cards == distinct, (verb, cards, "hand:", hand)
first_discard = [v for _, v, _ in listed].index("discard")
assert all(v == "play" for _, v, _ in listed[:first_discard]), listed
' || fail "the numbered actions are not in the hand's order"
}

# 1. Lost Cities, seed 2: the action list in hand order, twice; a long refusal wrapped at 80 columns.
start 80 lost-cities --players human,random --seed 2
wait_for 'seat 1>'
in_hand_order
tmux send-keys -t "$session" 'fly to the moon' Enter
wait_for 'is not an action'
long=$(all | awk 'length($0) > 80' | head -3)
[ -z "$long" ] || fail "a line wider than the terminal (cut by it, not wrapped between words): $long"
all | grep -F 'draw deck or draw <colour letter> (e.g. play Y7, draw G)' > /dev/null || fail "the refusal's words are not all on the screen"
tmux send-keys -t "$session" 1 Enter
wait_for 'seat 1>' 3
tmux send-keys -t "$session" 'draw deck' Enter
wait_for 'Legal actions:' 2
in_hand_order

# 2. The board game (seed 2, two greedy bots): each step of a turn says where it went.
start 140 lost-cities-board --players greedy,greedy --seed 2
wait_for 'played W6'
all | grep -F 'played W6: adventurer white to step 2 (-15); arrow: adventurer white to step 3' > /dev/null ||
  fail "the board game's turn line does not give the card's step (2) and the arrow's (3): $(all | grep -F 'played W6')"
echo "OK: actions numbered in hand order, long refusals wrapped between words, each step of a board turn placed"
