#!/usr/bin/env bash
# Session of 2026-12-04 (2), call 2 (issue 43 step 3): the models suite in f16 at --budget 8 a shape beside cuBLAS,
# with 96/192 tiles in the default space and the screening order's wave prediction (compute units from the driver).
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s54c2
mkdir -p $d
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee $d/gpu.txt
build/gemmtune devices | grep -i "compute units" | tee -a $d/gpu.txt
scripts/models-bench.sh --budget 8 --dtypes "${DTYPES:-f16}" --out-dir $d/models > $d/models.log 2>&1
cp $d/models/bench.md $d/models/bench.json $d/models/cublas.jsonl $d/models/nvidia-h200.json $OUT/
tail -5 $d/models.log
tar czf $OUT/call.tgz -C $d .
