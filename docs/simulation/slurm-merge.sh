#!/bin/bash
# The last step of a sharded simulation on Slurm: merges the shards' JSONL files into the summary (exactly
# the one an unsharded run prints) and the HTML report. slurm-submit.sh runs it after the whole array.
#SBATCH --job-name=houserules-merge
#SBATCH --cpus-per-task=1
#SBATCH --mem=4G
#SBATCH --time=00:30:00
#SBATCH --output=logs/merge-%j.out
set -euo pipefail
HOUSERULES=${HOUSERULES:-houserules}
OUT=${OUT:-results}
"$HOUSERULES" merge "$OUT"/out-*.jsonl --report "$OUT/report.html" > "$OUT/summary.txt"
cat "$OUT/summary.txt"
