#!/usr/bin/env bash
# Session of 2026-12-05 (6), call 2: issue 43 step 11 (rowmma's K x N register fragments at 1, 2 and 4 blocks): the
# RowMma GPU tests, then the K x N decoding rows (s62/decode-kxn.txt) in f16 beside cuBLAS; issue 43 step 12 (the
# baseline's long runs timed once after their verification): the two 4096-class llama rows at --budget 8 -v.
# Carry: [".gpu-kit", "build/gemmtune", "build/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s62c1
mkdir -p $d
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv | tee $d/gpu.txt
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 240 build/tests/gpu_tests \
  --gtest_filter='RowMma.*:AllVariants/Operation.*rowmma_*' > $d/gpu_tests.txt 2>&1
grep -E "^\[  (PASSED|FAILED)|FAILED  \]" $d/gpu_tests.txt | tee $d/summary.txt
scripts/models-bench.sh --budget 12 --dtypes f16 --shapes-file results/h200/s62/decode-kxn.txt \
  --out-dir $d/decode > $d/decode.log 2>&1
cp $d/decode/bench.md $OUT/decode.md; tail -3 $d/decode.log | tee -a $d/summary.txt
nproc > $d/prep.txt
build/gemmtune --shape 2048x14336x4096,512x14336x4096 --layout nt --dtype f16 --budget 8 -v --out /tmp/big.json 2>&1 |
  grep -E "preparation|time:|evaluated|reference ready|baseline" >> $d/prep.txt
cp $d/summary.txt $d/gpu_tests.txt $d/prep.txt $OUT/
tar czf $OUT/call.tgz -C $d .
