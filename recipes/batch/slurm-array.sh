#!/usr/bin/env bash
# The Kubernetes Indexed Job as a Slurm array: task K validates shard K of the array's size.
#   sbatch recipes/batch/slurm-array.sh /photos reports
#   recipes/batch/merge-shards reports/shard-*.jsonl > report.jsonl
#SBATCH --job-name=validate-photos
#SBATCH --array=1-8
#SBATCH --cpus-per-task=2
#SBATCH --mem=1G
set -uo pipefail
photos=$1 reports=$2
mkdir -p "$reports"
photo-validator validate --jobs "${SLURM_CPUS_PER_TASK:-2}" --format jsonl \
  --shard "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT" "$photos" > "$reports/shard-$SLURM_ARRAY_TASK_ID.jsonl"
status=$?
# 1 means some photos failed validation: a result, not an error.
[ "$status" -le 1 ]
