#!/usr/bin/env bash
# Issue 43, the prior of the session of 2026-12-06 (15) on the device (results/h200/notes.md, "the screening prior's
# subgroups", "splitk's screening prior", "coopmat2 one config a round"): two short problems in no suite and no ground
# truth, tuned at --budget 10 (adaptive, cold caches) beside a 90-s screen of each as its ground truth, and 2048^3
# f16 (long: the old order's) at --budget 10. About 4.5 minutes. Carry: [".gpu-kit", "build/gemmtune"].
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
d=/tmp/s74c2
PROBLEMS="1536x1536x1024 f16 nn
640x5120x1536 bf16 nt" BUDGETS=10 STRATEGIES=adaptive TRUTH_BUDGET=90 \
  scripts/search-quality.sh $d > $OUT/search.txt 2>&1
cp $d/search-quality.md $OUT/ 2>/dev/null
GEMMTUNE_CACHE_DIR=$d/cache-2048 build/gemmtune --shape 2048x2048x2048 --dtype f16 --budget 10 --out $d/2048.json \
  > $OUT/2048.txt 2>&1
tar -czf /tmp/s74c2.tgz -C $d . && cp /tmp/s74c2.tgz $OUT/
