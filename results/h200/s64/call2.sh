#!/usr/bin/env bash
# Session 2026-12-05 (7), call 2 (right after call 1): the models suite in bf16 at --budget 8 on this tree (issue 43
# step 15 in), beside cuBLAS: the suite's bf16 rows, owed for Done-when, and the tuner on 38 shapes nobody tuned it
# for (f16's run of the session before, on an H100 with the tree before step 15: 24 of 38 at target).
# Carry: [".gpu-kit", "build/gemmtune"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s64c2
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
timeout 480 scripts/models-bench.sh --budget 8 --dtypes bf16 --out-dir $d/models > $d/models.log 2>&1
echo "models-bench rc $?" | tee -a $d/gpu.txt
cp $d/models/bench.md $OUT/models.md 2>/dev/null; tail -4 $d/models.log
tar czf $OUT/call.tgz -C $d .
