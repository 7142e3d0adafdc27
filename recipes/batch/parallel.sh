#!/usr/bin/env bash
# The Kubernetes Indexed Job on one machine (or several with parallel --sshlogin): 8 shards at once.
#   recipes/batch/parallel.sh /photos reports 8
set -uo pipefail
photos=$1 reports=$2 count=${3:-8}
mkdir -p "$reports"
# 1 from validate means some photos failed validation, not that the shard failed.
parallel --halt now,fail=1 -j "$count" \
  "photo-validator validate --jobs 1 --format jsonl --shard {}/$count '$photos' > '$reports/shard-{}.jsonl'; [ \$? -le 1 ]" \
  ::: $(seq 1 "$count")
