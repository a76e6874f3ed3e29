#!/usr/bin/env bash
# Session of 2026-12-07 (29), call 1. Issue 43 step 47b: the f32 decoding rows of the models suite and M <= 16
# shapes outside it (decode-f32.txt) through `scripts/models-bench.sh --budget 8 --dtypes f32` beside cuBLAS, with
# warptile's screening counting a tile at M <= 16 by the rows that hold outputs. Binary build/gemmtune (this tree's).
# Carry [".gpu-kit", "build/gemmtune"]. About 150 s.
set -uo pipefail
source .gpu-kit/activate.sh
d=$(dirname "$0")
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
timeout -s INT 300 scripts/models-bench.sh --budget 8 --dtypes f32 --shapes-file $d/decode-f32.txt --out-dir build/dm \
  > build/dm.log 2>&1
echo "models-bench rc $?" | tee -a $OUT/gpu.txt
grep -E "  screened|  best:" build/dm/tune.log | tee -a $OUT/gpu.txt
cp build/dm/bench.md build/dm/bench.json build/dm/cublas.jsonl build/dm/nvidia-h200.json $OUT/ 2>/dev/null
