#!/usr/bin/env bash
# tests/fuzz/run.sh — builds the libFuzzer targets (build-fuzz/, clang, -DHOUSERULES_FUZZ=ON) and runs each for a
# bounded time on a corpus seeded from tests/fuzz/corpus/<target>/ and the project's own files. A crash, a leak, a
# sanitizer report or a timeout fails the script, printing the reproducer and the command that replays it.
#
#   tests/fuzz/run.sh                       # every target, 60 s each (what .ci/run does)
#   tests/fuzz/run.sh 3600 scenario         # one target for an hour
#   FUZZ_RUNS=1000000 tests/fuzz/run.sh 0   # every target for 10^6 executions (no time limit)
#   FUZZ_TIMEOUT=60 ...                     # one input's limit in wall-clock seconds (default 10): raise it
#                                           # for a long run under `nice` on a busy machine (see docs/fuzzing.md)
#
# Targets: variant scenario transcript merge human_input http external_player (tests/fuzz/fuzz_<target>.cpp).
# docs/fuzzing.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-60}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(variant scenario transcript merge human_input http external_player); fi
build=build-fuzz
jobs="${FUZZ_BUILD_JOBS:-$(nproc)}"

export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
launcher=()
if command -v ccache > /dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHOUSERULES_FUZZ=ON "${launcher[@]}" > /dev/null
cmake --build "$build" -j"$jobs" --target fuzz_targets

# The seed corpus: the committed entries (regressions included) and the project's own files of each format.
seed() {
  local target="$1" dir="$2"
  rm -rf "$dir"
  mkdir -p "$dir"
  cp tests/fuzz/corpus/"$target"/* "$dir"/
  case "$target" in
    variant)
      for f in rulesets/*/variants/*.toml examples/*/*.toml; do cp "$f" "$dir/$(echo "$f" | tr / _)"; done ;;
    scenario)  # the shipped scenario files, with their relative ruleset paths made ids
      for f in rulesets/*/tests/*.toml rulesets/*/tests/variants/*.toml; do
        id=$(echo "$f" | cut -d/ -f2)
        sed -E "s|^ruleset = \"\\.\\.(/\\.\\.)?\"|ruleset = \"$id\"|" "$f" > "$dir/$(echo "$f" | tr / _)"
      done ;;
    http)  # a golden transcript posted for replay, as the page's "open a transcript" does
      f=rulesets/lost-cities/tests/golden/$(ls rulesets/lost-cities/tests/golden | head -1)
      { printf 'POST /api/replays?name=golden HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n\r\n' "$(wc -c < "$f")"; cat "$f"; } \
        > "$dir/golden-replay" ;;
    external_player)  # the answers of a whole game: the actions a golden transcript's seat 1 played
      f=rulesets/lost-cities/tests/golden/$(ls rulesets/lost-cities/tests/golden | head -1)
      grep '"seat":1' "$f" | grep -o '"action":"[^"]*"' | sed 's/^/{/; s/$/}/' > "$dir/golden-answers" ;;
  esac
}

dict_of() {
  case "$1" in
    variant|scenario) echo tests/fuzz/toml.dict ;;
    transcript|merge) echo tests/fuzz/json.dict ;;
    human_input) echo tests/fuzz/input.dict ;;
    http) echo tests/fuzz/http.dict ;;
    external_player) echo tests/fuzz/protocol.dict ;;
  esac
}

status=0
summary=()
# The sandbox's backstop, built the fuzz way, must abort (a crash libFuzzer reports, keeping the input) rather
# than exit with status 70 as it does elsewhere: a hook stuck in C code is then a finding with its reproducer.
set +e
"$build/tests/fuzz/fuzz_backstop_probe" > "$build/backstop_probe.log" 2>&1
probe=$?
set -e
if [ "$probe" -eq 134 ] && grep -q "still ran .* the process is stopped" "$build/backstop_probe.log"; then
  summary+=("fuzz_backstop_probe: the backstop aborts (exit 134), as libFuzzer needs")
else
  status=1
  summary+=("fuzz_backstop_probe: exit $probe, expected 134 (SIGABRT) after the backstop's message")
  cat "$build/backstop_probe.log"
fi
for target in "${targets[@]}"; do
  binary="$build/tests/fuzz/fuzz_$target"
  corpus="$build/corpus/$target"
  artifacts="$build/artifacts/$target/"
  seed "$target" "$corpus"
  rm -rf "$artifacts"
  mkdir -p "$artifacts"
  log="$build/fuzz_$target.log"
  limit=(-max_total_time="$seconds")
  if [ "$seconds" = 0 ]; then limit=(); fi
  echo "== fuzz_$target: ${FUZZ_RUNS:+${FUZZ_RUNS} runs }${seconds:+${seconds} s} on $(ls "$corpus" | wc -l) seed files"
  start=$(date +%s)
  set +e
  ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
    "$binary" "$corpus" "${limit[@]}" -runs="${FUZZ_RUNS:--1}" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=2560 -max_len=32768 \
    -dict="$(dict_of "$target")" -artifact_prefix="$artifacts" -print_final_stats=1 > "$log" 2>&1
  code=$?
  set -e
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 || true)
  line="fuzz_$target: exit $code, ${runs:-?} executions in $(( $(date +%s) - start )) s (${rate:-?}/s), $cov"
  summary+=("$line")
  echo "$line"
  if [ "$code" -ne 0 ]; then
    status=1
    echo "---- fuzz_$target FAILED; the end of its log ($log):"
    tail -60 "$log"
    for crash in "$artifacts"*; do
      [ -f "$crash" ] || continue
      echo "---- reproducer $crash ($(wc -c < "$crash") bytes), base64:"
      head -c 4096 "$crash" | base64
      echo "---- replay it: $binary $crash"
    done
  fi
done
echo
printf '%s\n' "${summary[@]}"
exit $status
