#!/usr/bin/env bash
# Session of 2026-12-05 (3), call 2 (issue 43 steps 5-6): the seeds take turns with the prior's picks and the clocks
# are kept up while a problem is prepared; the models suite in f16 at --budget 8 a shape beside cuBLAS.
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s58c2
mkdir -p $d
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee $d/gpu.txt
scripts/models-bench.sh --budget 8 --dtypes "${DTYPES:-f16}" --out-dir $d/models > $d/models.log 2>&1
cp $d/models/bench.md $d/models/bench.json $d/models/cublas.jsonl $d/models/nvidia-h200.json $OUT/
tail -4 $d/models.log
tar czf $OUT/call.tgz -C $d .
