#!/usr/bin/env bash
# cluster_examples_test.sh HOUSERULES SOURCE-DIR
# The cluster examples of docs/simulation.md run here, scaled down, and give exactly the unsharded summary:
#  * Slurm: docs/simulation/slurm-submit.sh as written, with a stand-in `sbatch` (tests/tools/fake-slurm) that
#    runs each array task (SLURM_ARRAY_TASK_ID = 0..SHARDS-1) and then the merge job on this machine;
#  * Kubernetes: the container command of docs/simulation/k8s-indexed-job.yaml, run once per
#    JOB_COMPLETION_INDEX = 0..completions-1 with --games scaled down, then the command of k8s-merge-job.yaml.
set -uo pipefail
hr=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$tmp/bin" "$tmp/slurm" "$tmp/k8s"
ln -s "$hr" "$tmp/bin/houserules"
export PATH="$tmp/bin:$src/tests/tools/fake-slurm:$PATH"
games=24
seed=2024
players=greedy,random
houserules simulate lost-cities --games "$games" --players "$players" --seed "$seed" --no-progress \
  > "$tmp/expected.txt" || fail "the unsharded simulation failed"

echo "--- Slurm: slurm-submit.sh with 3 shards"
cp "$src"/docs/simulation/slurm-*.sh "$tmp/slurm/"
(cd "$tmp/slurm" && SHARDS=3 GAMES=$games SEED=$seed PLAYERS=$players OUT="$tmp/slurm/results" ./slurm-submit.sh) ||
  fail "slurm-submit.sh failed"
ls "$tmp/slurm/results"
diff "$tmp/expected.txt" "$tmp/slurm/results/summary.txt" || fail "the Slurm merge differs from the unsharded run"
[ -s "$tmp/slurm/results/report.html" ] || fail "no report.html"

echo "--- Kubernetes: the Indexed Job's command for every completion index, then the merge Job's"
# The container's `args: - >-` folded block, joined into one line as YAML folds it.
command_of() { awk '/- >-/ { on = 1; next } on && /^ *[a-zA-Z]+:/ { on = 0 } on { sub(/^ +/, ""); printf "%s ", $0 }' "$1"; }
job="$src/docs/simulation/k8s-indexed-job.yaml"
completions=$(awk '$1 == "completions:" { print $2 }' "$job")
shards=$(awk '$1 == "value:" { gsub(/"/, "", $2); print $2; exit }' "$job")  # the SHARDS env value
[ "$completions" = "$shards" ] || fail "completions ($completions) and SHARDS ($shards) differ in $job"
simulate=$(command_of "$job" | sed -e "s/--games [0-9]*/--games $games/" -e "s#/results#$tmp/k8s#g")
grep -q -- '--shard "$JOB_COMPLETION_INDEX/$SHARDS"' <<<"$simulate" || fail "unexpected command: $simulate"
for ((i = 0; i < completions; i++)); do
  JOB_COMPLETION_INDEX=$i SHARDS=$shards THREADS=1 sh -c "$simulate" > /dev/null || fail "pod $i failed"
done
merge=$(command_of "$src/docs/simulation/k8s-merge-job.yaml" | sed -e "s#/results#$tmp/k8s#g")
sh -c "$merge" > "$tmp/k8s-merged.txt" || fail "the merge Job's command failed"
diff "$tmp/expected.txt" "$tmp/k8s-merged.txt" || fail "the Kubernetes merge differs from the unsharded run"
echo "OK: the Slurm and Kubernetes examples reproduce the unsharded summary"
