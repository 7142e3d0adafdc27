#!/usr/bin/env bash
# The Kubernetes Indexed Job as a Slurm array: task K validates shard K of the array's size.
#   sbatch recipes/batch/slurm-array.sh /photos reports
#   recipes/batch/merge-shards reports/shard-*-of-*.jsonl > report.jsonl
# A task ends COMPLETED when validate exits 0 (every photo passed) or 1 (some failed: a result),
# and FAILED with 2 when a file could not be read (fix it and resubmit that task: reading it again
# cannot help). A task whose validate is killed (the OOM killer, a lost node's processes) is
# requeued, at most 3 times; Slurm starts a requeued task again after about 2 minutes.
# The report appears as shard-K-of-N.jsonl only when the task succeeded, so merge-shards can
# tell a missing shard from an empty one. Checked on a real Slurm by scripts/test-cluster.
#SBATCH --job-name=validate-photos
#SBATCH --array=1-8
#SBATCH --cpus-per-task=2
#SBATCH --mem=1G
#SBATCH --requeue
#SBATCH --open-mode=append
set -uo pipefail
photos=$1 reports=$2
shard=$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT
report=$reports/shard-$SLURM_ARRAY_TASK_ID-of-$SLURM_ARRAY_TASK_COUNT.jsonl
mkdir -p "$reports"
echo "validate-photos: shard $shard, attempt $(( ${SLURM_RESTART_COUNT:-0} + 1 )), job $SLURM_JOB_ID on $(hostname -s)"
photo-validator validate --jobs "${SLURM_CPUS_PER_TASK:-2}" --format jsonl --no-progress \
  --shard "$shard" "$photos" > "$report.partial"
status=$?
if (( status <= 1 )); then
  mv "$report.partial" "$report"
  exit 0
fi
rm -f "$report.partial"
# Above 128: killed by a signal, which another attempt may survive.
if (( status > 128 && ${SLURM_RESTART_COUNT:-0} < 3 )); then
  echo "validate-photos: shard $shard: validate was killed (exit $status); requeueing the task"
  scontrol requeue "$SLURM_JOB_ID"
  # The requeue ends this attempt; the sleep keeps it from exiting (as FAILED) before it does.
  sleep 60
fi
echo "validate-photos: shard $shard: validate exited $status"
exit "$status"
