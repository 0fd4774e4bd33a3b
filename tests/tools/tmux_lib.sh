# tmux_lib.sh — what every pseudo-terminal test shares (sourced, not run): a tmux server of its own in a temporary
# folder, removed on exit; a `fail` that shows the screen; `wait_for` a text on the screen. The tests that source it
# play `houserules` in a real terminal as a person would (tests/tools/terminal_test.sh, table_terminal_test.sh,
# terminal_details_test.sh, rulesets/lost-valley/tests/terminal_map.sh, terminal_turns.sh).
#
# Use:  source tmux_lib.sh NAME   (after `set -euo pipefail`)
#   - exits 77 (CTest's "skipped") with a message when tmux is not installed;
#   - sets $d (a fresh folder, removed on exit, the server's socket folder too) and $session (hr-NAME-PID), and
#     starts a `keeper` session that keeps the server up between the sessions a test starts and kills;
#   - TMUX_SCROLLBACK (default -400): how far back `screen_text` reads (`-` for the whole scrollback);
#     TMUX_JOIN=1 joins the lines the terminal wrapped; TMUX_WAIT (default 600): tenths of a second wait_for waits;
#     FAIL_PREFIX: put before each failure's message (e.g. the ruleset under test).
# shellcheck shell=bash

command -v tmux > /dev/null || { echo "tmux is not installed: skipped"; exit 77; }
d=$(mktemp -d)
session="hr-$1-$$"
export TMUX_TMPDIR=$d
cleanup() { tmux kill-server 2> /dev/null || true; rm -rf "$d"; }
trap cleanup EXIT
tmux new-session -d -s keeper -x 80 -y 10 "sleep 3600"

# The screen and the scrollback as text (TMUX_SCROLLBACK lines back; TMUX_JOIN=1 joins wrapped lines).
screen_text() { tmux capture-pane -p ${TMUX_JOIN:+-J} -t "$session" -S "${TMUX_SCROLLBACK:--400}" 2> /dev/null; }

# fail MESSAGE...: says FAIL with the message, shows the last 60 lines of the screen, exits 1.
fail() {
  echo "FAIL${FAIL_PREFIX:+ ($FAIL_PREFIX)}: $*"
  echo "--- screen:"
  screen_text | tail -60
  exit 1
}

# wait_for TEXT [COUNT]: waits until TEXT stands on the screen COUNT times (default 1); fails after TMUX_WAIT tenths
# of a second.
wait_for() {
  local want=${2:-1} n
  for _ in $(seq "${TMUX_WAIT:-600}"); do
    n=$(screen_text | grep -cF -- "$1" || true)
    [ "$n" -ge "$want" ] && return 0
    sleep 0.1
  done
  fail "no '$1' (x$want) on the screen"
}
