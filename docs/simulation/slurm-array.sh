#!/bin/bash
# One task of a Slurm array job: shard $SLURM_ARRAY_TASK_ID of $SHARDS of one houserules simulation.
# Submit all of it (the array, then the merge once every task succeeded) with slurm-submit.sh. Every task
# runs the same experiment (same ruleset, players, seed, games); only --shard differs.
#SBATCH --job-name=houserules-sim
#SBATCH --cpus-per-task=4
#SBATCH --mem=2G
#SBATCH --time=02:00:00
#SBATCH --output=logs/sim-%A_%a.out
set -euo pipefail

: "${SHARDS:?set SHARDS to the array size (slurm-submit.sh does)}"
INDEX=${SLURM_ARRAY_TASK_ID:?not running as a Slurm array task}   # 0-based: --array=0-$((SHARDS - 1))
HOUSERULES=${HOUSERULES:-houserules}
RULESET=${RULESET:-lost-cities}
PLAYERS=${PLAYERS:-greedy,random}
GAMES=${GAMES:-1000000}
SEED=${SEED:-2024}
OUT=${OUT:-results}

mkdir -p "$OUT"
"$HOUSERULES" simulate "$RULESET" --games "$GAMES" --players "$PLAYERS" --seed "$SEED" \
  --threads "${SLURM_CPUS_PER_TASK:-1}" --shard "$INDEX/$SHARDS" --jsonl "$OUT/out-$INDEX.jsonl" --no-progress \
  > "$OUT/summary-$INDEX.txt"
