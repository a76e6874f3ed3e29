#!/usr/bin/env bash
# Session 2026-12-06 (13), call 9: the models suite's decode rows (f16, bf16) with rowmma's K x M path, beside cuBLAS
# (`scripts/models-bench.sh` on the suite's decode lines). Carry: [".gpu-kit", "build/gemmtune"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s72c9
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
grep '^decode' configs/shapes/models.txt > $d/decode.txt
scripts/models-bench.sh --budget 8 --dtypes f16,bf16 --out-dir $d/out --shapes-file $d/decode.txt > $d/run.log 2>&1
echo "models-bench rc $?" | tee -a $d/gpu.txt
cp $d/out/bench.md $d/out/bench.json $d/gpu.txt $OUT/
tail -3 $d/run.log > $OUT/run-tail.txt
