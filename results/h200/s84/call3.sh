#!/usr/bin/env bash
# Session 2026-12-07 (22), call 3 (an H200 only). Issue 43: the models suite in f16 beside cuBLAS with today's
# tuner and prior (`scripts/models-bench.sh --budget 8 --dtypes f16`), the H200 models table's f16 rows re-tuned
# (its gate-up config predates the subgroup prior). Carry: [".gpu-kit", "build/gemmtune"]. About 6 minutes.
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
timeout -s INT 540 scripts/models-bench.sh --budget 8 --dtypes f16 --out-dir build/models > build/models.log 2>&1
echo "models-bench rc $?" | tee -a $OUT/gpu.txt
tail -3 build/models.log
cp build/models.log build/models/
tar czf $OUT/models.tgz -C build models
