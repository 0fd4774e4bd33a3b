#!/usr/bin/env bash
# progress_terminal_test.sh HOUSERULES — `check` and `compare` show their progress as `simulate` does on a
# terminal (issue 37): in a pseudo-terminal (tmux) a bar with the games done, the rate and the time left; in a
# pipe, or with --no-progress, nothing on stderr. Skipped (77) without tmux.
set -uo pipefail
hr=$1
command -v tmux > /dev/null || { echo "tmux is not installed: skipped"; exit 77; }
d=$(mktemp -d)
sock="hr-progress-$$"
cleanup() { tmux -L "$sock" kill-server 2> /dev/null || true; rm -rf "$d"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "--- screen:"; cat "$d/screen" 2> /dev/null; exit 1; }

# in_terminal NAME ARGS...: runs houserules ARGS with stderr on a 160-column terminal, stdout to $d/NAME.out;
# leaves the screen in $d/screen.
in_terminal() {
  local name=$1
  shift
  tmux -L "$sock" new-session -d -s "$name" -x 160 -y 20 \
    "$(printf '%q ' "$hr" "$@") > $d/$name.out; echo \"status \$?\" > $d/$name.done; sleep 60"
  for _ in $(seq 600); do [ -f "$d/$name.done" ] && break; sleep 0.2; done
  [ -f "$d/$name.done" ] || fail "houserules $* did not finish in 120 s"
  tmux -L "$sock" capture-pane -p -t "$name" -S -50 > "$d/screen"
}

in_terminal check check lost-cities --games 30 --seed 4
grep -qE '^\[#{30}\] 30/30 games 100%  [0-9]+ games/s  0:00 left' "$d/screen" || fail "check shows no complete bar"
grep -q "no violation" "$d/check.out" || fail "check's summary is missing: $(cat "$d/check.out")"
in_terminal quiet check lost-cities --games 30 --seed 4 --no-progress
grep -q 'games/s' "$d/screen" && fail "check --no-progress drew a bar"
in_terminal compare compare lost-cities lost-cities --players random,random --games 40 --threads 2
# one bar for both sides: A and B are played deal by deal (mirror blocks counted as they finish, issue 37)
grep -qE '^\[#{30}\] 80/80 games of A and B 100%  [0-9]+ games of A and B/s  0:00 left' "$d/screen" ||
  fail "compare shows no bar for the games of A and B"
grep -q 'no figure changed significantly' "$d/compare.out" || fail "compare's text is missing"

# In a pipe: nothing on stderr.
"$hr" check lost-cities --games 30 --seed 4 > /dev/null 2> "$d/err" || fail "check failed in a pipe"
[ ! -s "$d/err" ] || fail "check printed progress in a pipe: $(cat "$d/err")"
"$hr" compare lost-cities lost-cities --players random,random --games 40 --threads 2 > /dev/null 2> "$d/err"
[ ! -s "$d/err" ] || fail "compare printed progress in a pipe: $(cat "$d/err")"
echo "progress at a terminal: ok"
