#!/usr/bin/env bash
# cli_arguments_test.sh HOUSERULES SOURCE_DIR — the command line's exit codes and argument checks (docs/cli.md):
# parse errors exit 2 (not CLI11's own 105, 106...) with "did you mean" for a mistyped command or option,
# `houserules` alone and `houserules help` list the commands, --help exits 0 and shows 2-3 examples on every
# command, --seed refuses negative and out-of-range numbers, --threads 0 is an error, simulate checks its
# --jsonl/--report paths before the first game, and one broken ruleset on HOUSERULES_PATH is reported and
# skipped by `list`. Fails naming the broken promise.
source "$(dirname "$0")/cli_test_lib.sh" "$1" "$2"

# no command, help: the command list on stdout, status 0
run 0
grep -q 'simulate' "$d/out" && grep -q 'describe' "$d/out" || fail "houserules alone does not list the commands"
run 0 help
grep -q 'simulate' "$d/out" && grep -q 'replay' "$d/out" || fail "houserules help does not list the commands"
run 0 help simulate
grep -q -- '--players' "$d/out" || fail "houserules help simulate does not show simulate's options"
run 2 help simualte
grep -q 'did you mean `houserules simulate`' "$d/err" || fail "help with a mistyped command gives no suggestion"

# mistyped commands and options: status 2 and a suggestion
run 2 simualte lost-cities
grep -q 'did you mean `houserules simulate`' "$d/err" || { cat "$d/err"; fail "no suggestion for 'simualte'"; }
run 2 lsit
grep -q 'did you mean `houserules list`' "$d/err" || { cat "$d/err"; fail "no suggestion for 'lsit'"; }
run 2 simulate lost-cities --players greedy,random --gmaes 10
grep -q 'did you mean `houserules simulate --games`' "$d/err" || { cat "$d/err"; fail "no suggestion for --gmaes"; }
run 2 play lost-cities --sede 3
grep -q 'did you mean `houserules play --seed`' "$d/err" || { cat "$d/err"; fail "no suggestion for --sede"; }
run 2 check
grep -q 'ruleset is required' "$d/err" || { cat "$d/err"; fail "a missing positional is not named"; }
run 2 replay "$d/no-such-file.jsonl"

# --help and --version: status 0; every command's help has examples (2 or 3 lines starting "  houserules")
run 0 --version
for command in list describe play replay test check simulate merge new; do
  run 0 "$command" --help
  n=$(grep -c '^  houserules\|^  HOUSERULES_PATH=.* houserules' "$d/out")
  [ "$n" -ge 2 ] || { cat "$d/out"; fail "houserules $command --help has $n examples, not 2 or 3"; }
  grep -q '^Examples:' "$d/out" || fail "houserules $command --help has no Examples: section"
done

# --seed: negative, too large and not a number are refused, naming the problem
run 2 play lost-cities --players random,random --seed -1 --quiet
grep -q 'negative' "$d/err" || { cat "$d/err"; fail "--seed -1 is not refused as negative"; }
run 2 check lost-cities --games 1 --seed 18446744073709551616
grep -q 'out of range' "$d/err" || { cat "$d/err"; fail "--seed 2^64 is not refused as out of range"; }
run 2 simulate lost-cities --players random,random --games 1 --seed 12abc
grep -q 'not a whole number' "$d/err" || { cat "$d/err"; fail "--seed 12abc is not refused"; }
run 0 play lost-cities --players random,random --seed 18446744073709551615 --quiet

# --threads 0, --games 0
run 2 simulate lost-cities --players random,random --games 2 --threads 0 --no-progress
grep -q 'at least 1' "$d/err" || { cat "$d/err"; fail "--threads 0 is not refused"; }
run 2 check lost-cities --games 0

# list: every row's columns line up, a long variant id included (issue 37: ascending-descending pushed its row out)
run 0 list
python3 - "$d/out" <<'PY' || fail "list's columns are not aligned: $(cat "$d/out")"
import re, sys
rows = [l for l in open(sys.argv[1]).read().splitlines() if l.strip()]
starts = {m.end() for l in rows for m in [re.search(r" [0-9-]+ players  ", l)]}
assert len(rows) > 5 and len(starts) == 1, starts
assert any("ascending-descending" in l for l in rows)
PY

# a path that does not exist is bad input for test as for every command (issue 37: it exited 1)
run 2 test "$d/nonexistent.toml"
grep -q "error: $d/nonexistent.toml: no such file or folder" "$d/err" || { cat "$d/err"; fail "test: no clear message for a missing file"; }

# Too many games (issue 32 item 8): a clear message and status 2, never an abort; compare's rounding to whole
# mirror blocks does not overflow. (No per-process cap below that: memory does not grow with the games, issue 37;
# tests/tools/simulate_memory_test.sh measures it.)
run 2 simulate lost-cities --players random,random --games 1000000001 --shard 0/1000 --no-progress
grep -q 'at most 1000000000' "$d/err" || { cat "$d/err"; fail "--games above the maximum is not refused"; }
run 2 compare lost-cities lost-cities --players random,random --games 9223372036854775807 --no-progress
grep -q 'compare plays at most 1000000000 games each' "$d/err" || { cat "$d/err"; fail "compare --games is not bounded"; }
# issue 32: compare of a 3-4 player ruleset with two players names --players and the seat counts it takes
run 2 compare lost-valley lost-valley --players greedy,greedy --games 2 --no-progress
grep -q 'is played by 3 to 4 players, not 2: give --players 3 to 4 names' "$d/err" ||
  { cat "$d/err"; fail "compare with a seat count the ruleset does not take does not name --players"; }
# A shard of a large experiment plays only its own games, its indices computed as it goes: game 999999999 is
# the last of the experiment and the only one of shard 999999999/1000000000.
run 0 simulate lost-cities --players random,random --games 1000000000 --shard 999999999/1000000000 --no-progress \
  --jsonl "$d/last.jsonl"
grep -q '"index":999999999,' "$d/last.jsonl" && [ "$(grep -c '"type":"game"' "$d/last.jsonl")" -eq 1 ] \
  || { cat "$d/err"; fail "the last shard of 10^9 games did not play exactly game 999999999"; }

# output paths are checked before the first game: nothing runs, no timing line
run 2 simulate lost-cities --players random,random --games 50 --report "$d/missing/r.html" --no-progress
grep -q "does not exist" "$d/err" || { cat "$d/err"; fail "--report into a missing folder is not named"; }
grep -q 'games in' "$d/err" && fail "games were played before the --report path was found missing"
run 2 simulate lost-cities --players random,random --games 50 --jsonl "$d" --no-progress
grep -q "is a folder" "$d/err" || { cat "$d/err"; fail "--jsonl naming a folder is not refused"; }
if [ "$(id -u)" != 0 ]; then  # root writes anywhere
  mkdir "$d/ro" && chmod 555 "$d/ro"
  run 2 simulate lost-cities --players random,random --games 5 --jsonl "$d/ro/x.jsonl" --no-progress
fi

# one broken ruleset on HOUSERULES_PATH: reported on stderr, the others listed, status 0
mkdir -p "$d/path/broken" "$d/path/good"
printf 'id = "broken"\nname = [unclosed\n' > "$d/path/broken/ruleset.toml"
cp -r "$src/tests/fixtures/tiny-draw/." "$d/path/good/"
HOUSERULES_PATH="$d/path" run 0 list
grep -q 'broken/ruleset.toml' "$d/err" || { cat "$d/err"; fail "the broken ruleset is not reported on stderr"; }
grep -q '^lost-cities ' "$d/out" || fail "a broken ruleset on HOUSERULES_PATH hides the built-in ones"
good_id=$(sed -n 's/^id = "\(.*\)"/\1/p' "$d/path/good/ruleset.toml")
grep -q "^$good_id " "$d/out" || { cat "$d/out"; fail "the good ruleset beside the broken one is not listed"; }
HOUSERULES_PATH="$d/path" run 0 describe "$good_id"
HOUSERULES_PATH="$d/path" run 0 describe lost-cities

echo "cli arguments: ok"
