#!/usr/bin/env bash
# Session of 2026-12-04, calls 1-3 (each with its own binary): issue 41 step 11 on the search-quality benchmark:
# --budget 10 and 5, adaptive, cold caches, the eight problems; report against the recorded ground truths.
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s44
mkdir -p $d
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee $d/gpu.txt
BUDGETS="10 5" STRATEGIES=adaptive TRUTH_BUDGET=0 scripts/search-quality.sh $d/q > $d/q.log 2>&1
python3 scripts/search_quality.py $d/q --truths tests/data/search > $OUT/search-quality.md
grep -h -E '^== ' $d/q.log > $OUT/runs.txt
tar czf $OUT/call.tgz -C $d .
