#!/usr/bin/env bash
# Session of 2026-12-05 (6), call 3: the models suite in f16 at --budget 8 on the tree after issue 43 steps 11 and 12,
# beside cuBLAS (the last full f16 run was on an H100, before steps 8-12); the out dir's journal gives the large
# rows' screening costs (step 13's count). Carry: [".gpu-kit", "build/gemmtune"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s62c2
mkdir -p $d
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv | tee $d/gpu.txt
timeout 450 scripts/models-bench.sh --budget 8 --dtypes f16 --out-dir $d/models > $d/models.log 2>&1
echo "models-bench rc $?" | tee -a $d/gpu.txt
cp $d/models/bench.md $OUT/models.md 2>/dev/null; tail -4 $d/models.log
tar czf $OUT/call.tgz -C $d .
