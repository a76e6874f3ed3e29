#!/usr/bin/env bash
# Session of 2026-12-05 (4), call 3 (issue 43 step 8): rowmma for B stored K x N. First its GPU tests (every config
# at the K x N edges, all four layouts rotating, the operation cases), then the decoding rows of decode-kxn.txt in f16
# and bf16 at --budget 12 a shape beside cuBLAS (scripts/models-bench.sh with that shapes file); then where an 8 s
# budget goes at the two largest llama rows.
# Carry: [".gpu-kit", "build/gemmtune", "build/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s59c3
mkdir -p $d
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee $d/gpu.txt
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 240 build/tests/gpu_tests \
  --gtest_filter='RowMma.*:AllVariants/Operation.*rowmma_*' > $d/gpu_tests.txt 2>&1
grep -E "^\[  (PASSED|FAILED)|FAILED  \]" $d/gpu_tests.txt | tee $d/summary.txt
scripts/models-bench.sh --budget 12 --dtypes f16,bf16 --shapes-file results/h200/s59/decode-kxn.txt \
  --out-dir $d/decode > $d/decode.log 2>&1
cp $d/decode/bench.md $OUT/decode.md; tail -4 $d/decode.log | tee -a $d/summary.txt
# Where a short budget goes at the largest llama rows (the tune's `time:` lines; the notes, issue 43 step 7).
build/gemmtune --shape 512x14336x4096,2048x14336x4096 --layout nt --dtype f16 --budget 8 --out $d/llama.json \
  > $d/llama.txt 2> $d/llama.log
grep -E "evaluated|time:" $d/llama.txt | tee -a $d/summary.txt
cp $d/summary.txt $d/gpu_tests.txt $OUT/
tar czf $OUT/call.tgz -C $d .
