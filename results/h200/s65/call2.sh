#!/usr/bin/env bash
# Issue 43 (written 2026-12-05 (7), for the next session): the models suite in one dtype at --budget 8 on the tree with
# step 15c in, beside cuBLAS (the Done-when's f32 rows and f16 on this tree; bf16's ran on 2026-12-05 (7):
# results/h200/models/bench-bf16.md). One call a dtype: `bash results/h200/s65/call2.sh f32`, then `... f16`.
# Carry: [".gpu-kit", "build/gemmtune"]. Copy models.md to results/h200/models/bench-DTYPE.md with the header as bf16's.
set -uo pipefail
dtype=${1:?usage: call2.sh DTYPE (f32 or f16)}
source .gpu-kit/activate.sh
d=/tmp/s65c2-$dtype
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
timeout 480 scripts/models-bench.sh --budget 8 --dtypes $dtype --out-dir $d/models > $d/models.log 2>&1
echo "models-bench rc $?" | tee -a $d/gpu.txt
cp $d/models/bench.md $OUT/models.md 2>/dev/null; tail -4 $d/models.log
tar czf $OUT/call.tgz -C $d .
