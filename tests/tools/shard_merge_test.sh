#!/usr/bin/env bash
# shard_merge_test.sh HOUSERULES
# `houserules simulate` gives the same summary on 1 and 2 threads, and `--shard 0/2` + `--shard 1/2` (each on
# any thread count) merged with `houserules merge` give exactly the summary of the unsharded run (compared
# byte for byte) and exactly its game lines; so do 1, 3 and 7 shards (7 does not divide the 40 games: shards of
# 6 and 5 games), merged in any order. The merged --report equals the unsharded run's but for its one
# command-line row (each shard's command line and merge's instead of the run's), and merge --json equals
# simulate --json but for run.command_lines.
set -uo pipefail
hr=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
args=(lost-cities --games 40 --players greedy,random --seed 11 --no-progress)

"$hr" simulate "${args[@]}" --threads 2 --jsonl "$tmp/full.jsonl" --report "$tmp/full.html" > "$tmp/full.txt" ||
  fail "simulate failed"
"$hr" simulate "${args[@]}" --threads 2 --json > "$tmp/full.json" || fail "simulate --json failed"
without_command_line() { grep -v '^<tr id="command-line">' "$1"; }
[ "$(grep -c '^<tr id="command-line">' "$tmp/full.html")" -eq 1 ] || fail "no command-line row in the report"
cat "$tmp/full.txt"
"$hr" simulate "${args[@]}" --threads 1 > "$tmp/one-thread.txt" || fail "simulate --threads 1 failed"
cmp "$tmp/full.txt" "$tmp/one-thread.txt" || fail "1 and 2 threads give different summaries"

"$hr" simulate "${args[@]}" --shard 0/2 --threads 1 --jsonl "$tmp/shard0.jsonl" > "$tmp/shard0.txt" || fail "shard 0/2"
"$hr" simulate "${args[@]}" --shard 1/2 --threads 2 --jsonl "$tmp/shard1.jsonl" > "$tmp/shard1.txt" || fail "shard 1/2"
grep -q "shard 0/2" "$tmp/shard0.txt" || fail "a shard's summary does not say it is a shard"
"$hr" merge "$tmp/shard1.jsonl" "$tmp/shard0.jsonl" > "$tmp/merged.txt" || fail "merge failed"
diff "$tmp/full.txt" "$tmp/merged.txt" || fail "the merged summary differs from the unsharded one"
diff <(grep '"type":"game"' "$tmp/full.jsonl" | sort) <(cat "$tmp/shard0.jsonl" "$tmp/shard1.jsonl" | grep '"type":"game"' | sort) ||
  fail "the shards' game lines differ from the unsharded run's"
"$hr" merge "$tmp/shard0.jsonl" > /dev/null 2>&1 && fail "merging one shard of two should exit non-zero"
for count in 1 3 7; do
  files=()
  for ((i = count - 1; i >= 0; --i)); do  # merged last shard first: the order of the files does not matter
    "$hr" simulate "${args[@]}" --shard "$i/$count" --threads 1 --jsonl "$tmp/s$i-of-$count.jsonl" > /dev/null ||
      fail "shard $i/$count"
    files+=("$tmp/s$i-of-$count.jsonl")
  done
  "$hr" merge "${files[@]}" --report "$tmp/merged-$count.html" > "$tmp/merged-$count.txt" || fail "merge of $count shards failed"
  diff "$tmp/full.txt" "$tmp/merged-$count.txt" || fail "the merged summary of $count shards differs from the unsharded one"
  diff <(without_command_line "$tmp/full.html") <(without_command_line "$tmp/merged-$count.html") ||
    fail "the merged report of $count shards differs from the unsharded one"
  [ "$(grep -o -- "--shard [0-9]*/$count" "$tmp/merged-$count.html" | sort -u | wc -l)" -eq "$count" ] ||
    fail "the merged report does not list the command line of each of the $count shards"
  "$hr" merge "${files[@]}" --json > "$tmp/merged-$count.json" || fail "merge --json of $count shards failed"
  python3 - "$tmp/full.json" "$tmp/merged-$count.json" "$count" <<'PY' || fail "merge --json of $count shards differs"
import json, sys
full, merged = (json.load(open(f)) for f in sys.argv[1:3])
count = int(sys.argv[3])
assert len(merged["run"]["command_lines"]) == count + 1, merged["run"]["command_lines"]  # the shards', merge's
assert merged["run"]["command_lines"][-1].startswith("houserules merge ")
full["run"]["command_lines"] = merged["run"]["command_lines"] = []
assert full == merged
assert sum(full["seats"][0]["places"]) == full["completed"]
PY
  diff <(grep '"type":"game"' "$tmp/full.jsonl" | sort) <(cat "${files[@]}" | grep '"type":"game"' | sort) ||
    fail "the game lines of $count shards differ from the unsharded run's"
done
echo "OK: 1, 2, 3 and 7 shards merged == unsharded, byte for byte (summary, game lines, report but its command lines)"
