#!/bin/bash
# Submits a sharded houserules simulation to Slurm: an array of $SHARDS tasks (slurm-array.sh), then the merge
# (slurm-merge.sh) once every task has succeeded. Settings come from the environment, e.g.
#   SHARDS=20 GAMES=2000000 PLAYERS=greedy,random SEED=7 ./slurm-submit.sh
# Results: $OUT/out-<i>.jsonl per shard, then $OUT/summary.txt and $OUT/report.html.
set -euo pipefail
cd "$(dirname "$0")"
export SHARDS=${SHARDS:-10}
mkdir -p logs "${OUT:-results}"
array=$(sbatch --parsable --array=0-$((SHARDS - 1)) --export=ALL slurm-array.sh)
merge=$(sbatch --parsable --dependency=afterok:"$array" --export=ALL slurm-merge.sh)
echo "submitted array job $array ($SHARDS shards) and merge job $merge"
