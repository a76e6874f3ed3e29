#!/usr/bin/env bash
# Session of 2026-12-04: the real-model suite (issue 43) beside cuBLAS, one dtype a call (DTYPES, default f16), at
# --budget 8 a shape; with SEARCH=1 first the search-quality benchmark at --budget 10 (issue 41, step 11).
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s44m
mkdir -p $d
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee $d/gpu.txt
if [ "${SEARCH:-0}" = 1 ]; then
  BUDGETS="10" STRATEGIES=adaptive TRUTH_BUDGET=0 scripts/search-quality.sh $d/q > $d/q.log 2>&1
  python3 scripts/search_quality.py $d/q --truths tests/data/search > $OUT/search-quality.md
  grep -h -E '^== ' $d/q.log > $OUT/runs.txt
fi
scripts/models-bench.sh --budget 8 --dtypes "${DTYPES:-f16}" --out-dir $d/models > $d/models.log 2>&1
cp $d/models/bench.md $d/models/bench.json $d/models/cublas.jsonl $d/models/nvidia-h200.json $OUT/
tail -5 $d/models.log
tar czf $OUT/call.tgz -C $d .
