#!/usr/bin/env bash
# Session 2026-12-06 (12), call 2: the models suite in one dtype at --budget 8 on the tree with coopmat's aligning
# pre-pass (issue 43 attempt 3 at the edge row), beside cuBLAS: `bash results/h200/s71/call2.sh f16`.
# Carry: [".gpu-kit", "build/gemmtune"]. models.md goes to results/h200/models/bench-h100.md under its dtype.
set -uo pipefail
dtype=${1:?usage: call2.sh DTYPE (f32 or f16)}
source .gpu-kit/activate.sh
d=/tmp/s71c2-$dtype
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
timeout 480 scripts/models-bench.sh --budget 8 --dtypes $dtype --out-dir $d/models > $d/models.log 2>&1
echo "models-bench rc $?" | tee -a $d/gpu.txt
cp $d/models/bench.md $OUT/models.md 2>/dev/null; tail -4 $d/models.log
tar czf $OUT/call.tgz -C $d .
