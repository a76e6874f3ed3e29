#!/usr/bin/env bash
# Issue 43 (written 2026-12-05 (7), for the next session): the models suite in f16 at --budget 8 on the tree with step
# 15c in, beside cuBLAS (the Done-when's f16 rows; bf16's ran on 2026-12-05 (7): results/h200/models/bench-bf16.md).
# Carry: [".gpu-kit", "build/gemmtune"]. Copy models.md to results/h200/models/bench-f16.md with the header as bf16's.
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s65c3
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
timeout 480 scripts/models-bench.sh --budget 8 --dtypes f16 --out-dir $d/models > $d/models.log 2>&1
echo "models-bench rc $?" | tee -a $d/gpu.txt
cp $d/models/bench.md $OUT/models.md 2>/dev/null; tail -4 $d/models.log
tar czf $OUT/call.tgz -C $d .
