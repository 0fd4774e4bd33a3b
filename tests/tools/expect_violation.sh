#!/usr/bin/env bash
# expect_violation.sh HOUSERULES CHECK-NAME RULESET [check options...]
# Runs `houserules check RULESET ...`, which must exit 1 reporting a violation of CHECK-NAME first ("unique
# action texts", "ruleset invariant", ...); then runs the `reproduce:` command it printed, which must report
# the same violation again (same seed, same action, same message) on its own.
set -uo pipefail
hr=$1
want=$2
shift 2

out=$("$hr" check "$@" 2>&1)
status=$?
printf '%s\n' "$out"
fail() { echo "FAIL: $*"; exit 1; }
[ "$status" -eq 1 ] || fail "houserules check exited $status, expected 1 (a violation)"
first=$(grep -m1 '^VIOLATION' <<<"$out") || fail "no VIOLATION line"
grep -qF -- ": $want: " <<<"$first" || fail "the first violation is not a '$want' violation"
command=$(grep -m1 '^  reproduce: houserules check ' <<<"$out" | sed 's/^  reproduce: houserules //') ||
  fail "no reproduce command"

echo "--- reproducing: houserules $command"
# The printed command is shell-quoted for a person to paste; evaluate it the same way.
again=$(eval "\"\$hr\" $command" 2>&1)
status=$?
printf '%s\n' "$again"
[ "$status" -eq 1 ] || fail "the reproduce command exited $status, expected 1"
second=$(grep -m1 '^VIOLATION' <<<"$again") || fail "the reproduce command found no violation"
# Same violation, apart from the game's number ("game 7" in the run, "game 1" when reproduced).
strip() { sed -E 's/^VIOLATION in game [0-9]+ /VIOLATION in game N /' <<<"$1"; }
[ "$(strip "$first")" = "$(strip "$second")" ] || fail "the reproduced violation differs:
  run:        $first
  reproduced: $second"
echo "OK: '$want' violation caught and reproduced"
