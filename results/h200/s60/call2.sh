#!/usr/bin/env bash
# Session of 2026-12-05 (5), call 2 (issue 43 step 10, not yet run): rowmma's register-built fragments for B stored
# K x N. Its GPU tests (every K x N regs1 config at N = 136, K = 1024 and 1032, and the rest of the edges), then the
# decoding rows of results/h200/s59/decode-kxn.txt in f16 and bf16 at --budget 12 a shape beside cuBLAS.
# Needs results/h200/s59 (git checkout 86f1035 -- results/h200/s59).
# Carry: [".gpu-kit", "build/gemmtune", "build/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s60c2
mkdir -p $d
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv | tee $d/gpu.txt
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 240 build/tests/gpu_tests \
  --gtest_filter='RowMma.*:AllVariants/Operation.*rowmma_*' > $d/gpu_tests.txt 2>&1
grep -E "^\[  (PASSED|FAILED)|FAILED  \]" $d/gpu_tests.txt | tee $d/summary.txt
scripts/models-bench.sh --budget 12 --dtypes f16,bf16 --shapes-file results/h200/s59/decode-kxn.txt \
  --out-dir $d/decode > $d/decode.log 2>&1
cp $d/decode/bench.md $OUT/decode.md; tail -4 $d/decode.log | tee -a $d/summary.txt
cp $d/summary.txt $d/gpu_tests.txt $OUT/
tar czf $OUT/call.tgz -C $d .
