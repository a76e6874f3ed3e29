#!/usr/bin/env bash
# Session of 2026-12-04 (2), call 4 (issue 43): the models suite in bf16 at --budget 8 a shape beside cuBLAS, the
# binary of call 3 (steps 2-4).
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s54c4
mkdir -p $d
GEMMTUNE_BIN=$PWD/build-s4/gemmtune scripts/models-bench.sh --budget 7 --dtypes bf16 --out-dir $d/models > $d/models.log 2>&1
cp $d/models/bench.md $d/models/bench.json $d/models/cublas.jsonl $d/models/nvidia-h200.json $OUT/
tail -4 $d/models.log
tar czf $OUT/call.tgz -C $d .
