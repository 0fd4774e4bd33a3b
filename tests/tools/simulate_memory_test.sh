#!/usr/bin/env bash
# simulate_memory_test.sh HOUSERULES SOURCE_DIR — memory does not grow with the games (issue 37): simulate,
# compare and merge aggregate each game as it finishes (distributions, exact sums) and keep no record per game.
# The peak RSS (VmHWM, from getrusage of the finished command) of a run of 2,000,000 games is within 10% of the
# RSS of a run of 20,000, for simulate (and its --jsonl streamed to a file), compare and merge. A ratio, not a
# time: the games are of the tiny-take fixture with 2 cards (2 actions a game) to keep the run short.
# Skipped (77) in a sanitizer build (tests/sanitize.sh): AddressSanitizer keeps freed memory in its quarantine and
# shadow, so RSS there grows with the work whatever the program keeps (measured: 206 MiB -> 485 MiB); the plain
# build of ./test.sh checks the ratios.
set -euo pipefail
hr=$(readlink -f "$1")
src=$(readlink -f "$2")
if ldd "$hr" 2> /dev/null | grep 'libasan' > /dev/null; then
  echo "a sanitizer build: RSS ratios are checked in the plain build only (ASan's quarantine holds freed memory): skipped"
  exit 77
fi
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
tiny=("$src/tests/fixtures/tiny-take" --set ranks=2)

# peak_kib COMMAND...: runs it (stdout to $d/out) and prints its peak resident set size in KiB
peak_kib() {
  python3 - "$d/out" "$@" <<'PY'
import resource, subprocess, sys
with open(sys.argv[1], "wb") as out:
    status = subprocess.run(sys.argv[2:], stdout=out, stderr=subprocess.DEVNULL).returncode
if status != 0:
    sys.exit(f"exit status {status}: {' '.join(sys.argv[2:])}")
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
}
# within_10 WHAT SMALL LARGE: LARGE is at most 10% above SMALL
within_10() {
  echo "$1: $2 KiB at the small size, $3 KiB at 100 times the games (ratio $(python3 -c "print(round($3 / $2, 3))"))"
  [ "$3" -le $(($2 * 110 / 100)) ] || fail "$1: RSS grew from $2 KiB to $3 KiB with 100 times the games"
}

sim=(simulate "${tiny[@]}" --players random,random --threads 2 --no-progress --no-action-counts)
small=$(peak_kib "$hr" "${sim[@]}" --games 20000)
large=$(peak_kib "$hr" "${sim[@]}" --games 2000000)
grep -q '^2000000 completed games, 0 failed' "$d/out" || fail "simulate did not count 2,000,000 games: $(head -3 "$d/out")"
within_10 "simulate" "$small" "$large"

# --jsonl: every game written as it finishes (200,000 and 2,000 games in two shards each), then merged
small=$(peak_kib "$hr" "${sim[@]}" --games 4000 --shard 0/2 --jsonl "$d/s0.jsonl")
large=$(peak_kib "$hr" "${sim[@]}" --games 400000 --shard 0/2 --jsonl "$d/l0.jsonl")
within_10 "simulate --jsonl" "$small" "$large"
"$hr" "${sim[@]}" --games 4000 --shard 1/2 --jsonl "$d/s1.jsonl" > /dev/null 2>&1
"$hr" "${sim[@]}" --games 400000 --shard 1/2 --jsonl "$d/l1.jsonl" > /dev/null 2>&1
[ "$(grep -c '"type":"game"' "$d/l0.jsonl")" -eq 200000 ] || fail "the --jsonl file of 200,000 games is not complete"
small=$(peak_kib "$hr" merge "$d/s0.jsonl" "$d/s1.jsonl")
large=$(peak_kib "$hr" merge "$d/l0.jsonl" "$d/l1.jsonl")
grep -q '^400000 completed games, 0 failed' "$d/out" || fail "merge did not count 400,000 games"
within_10 "merge" "$small" "$large"

cmp=(compare "$src/tests/fixtures/tiny-take" "$src/tests/fixtures/tiny-take" --players random,random --threads 2 --no-progress)
small=$(peak_kib "$hr" "${cmp[@]}" --games 4000)
large=$(peak_kib "$hr" "${cmp[@]}" --games 400000)
within_10 "compare" "$small" "$large"
echo "OK: simulate, simulate --jsonl, merge and compare keep a flat RSS (within 10%) with 100 times the games"
