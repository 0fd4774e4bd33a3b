# cli_test_lib.sh — sourced by the cli_*_test.sh scripts (HOUSERULES SOURCE_DIR as $1 $2): sets hr and src
# (absolute), a scratch folder $d removed at exit, fail MESSAGE, and run STATUS ARGS... which runs houserules
# ARGS with stdout in $d/out and stderr in $d/err, failing unless it exits with STATUS.
set -uo pipefail
hr=$(realpath "$1")
src=$(realpath "$2")
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
run() {
  local want=$1
  shift
  "$hr" "$@" > "$d/out" 2> "$d/err"
  local got=$?
  [ "$got" = "$want" ] || { cat "$d/out" "$d/err"; fail "houserules $* exited $got, expected $want"; }
}
