#!/usr/bin/env bash
# Session of 2026-12-05 (3), call 3 (issue 44 step 3, attempt 2 of the rate): bf16x6 splitting once in a pre-pass
# (prepass1) beside splitting while staging and warptile at 4096^3 and the other shapes, every layout at
# 4096^3, cuBLAS SGEMM (TF32 off) in the same call; then the accuracy test of both bf16x6 forms against native f32 on
# uniform and wide-range inputs, the quantized and kit GPU tests (without the validation layer, which this machine
# lacks), and cuBLAS SGEMM's and TF32's errors on the same input sets.
d=/tmp/s58c3
source results/h200/s58/common.sh
build/gemmtune tune --shape 4096x4096x4096 --layout nn,nt,tn,tt --dtype f32 --variants bf16x6 \
  --kernels 'bf16x6_*_prepass1' --budget 15 --out $d/planes.json --json > $d/planes.out 2> $d/planes.log
summary $d/planes.out | tee $d/summary.txt; cp $d/summary.txt $OUT/
build/gemmtune tune --shape 2048x2048x2048,1024x768x3072,1024x3072x768,128x768x3072 --dtype f32 --budget 20 \
  --out $d/default.json --json > $d/default.out 2> $d/default.log
summary $d/default.out | tee -a $d/summary.txt
build/gemmtune tune --shape 512x4096x14336 --layout nt --dtype f32 --budget 25 \
  --out $d/default-nt.json --json > $d/default-nt.out 2> $d/default-nt.log
summary $d/default-nt.out | tee -a $d/summary.txt; cp $d/summary.txt $OUT/
python3 .gpu-kit/cublas_anchor.py --shapes 4096x4096x4096,2048x2048x2048,1024x768x3072,1024x3072x768,128x768x3072 \
  --dtypes f32 > $d/cublas.jsonl 2> $d/cublas.log
python3 .gpu-kit/cublas_anchor.py --shapes 4096x4096x4096,512x4096x14336 --dtypes f32 --layouts nt,tn,tt \
  >> $d/cublas.jsonl 2>> $d/cublas.log
cat $d/cublas.jsonl | tee -a $d/summary.txt; cp $d/summary.txt $OUT/
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 build/tests/gpu_tests \
  --gtest_filter='EmulatedF32*:QuantizedGemm*:EveryTypeAndLayout/Quantized.Prompt*:KitPlan*:Bf16Split*' \
  > $d/gpu_tests.txt 2>&1
tail -3 $d/gpu_tests.txt
cp $d/gpu_tests.txt $OUT/
python3 scripts/cublas_tf32_anchor.py --shapes 128x96x1024,197x200x544,64x160x4096,4096x4096x4096 --layouts nn \
  > $d/cublas_accuracy.jsonl 2> $d/cublas_accuracy.log
cat $d/cublas_accuracy.jsonl; cp $d/cublas_accuracy.jsonl $OUT/
tar czf $OUT/call.tgz -C $d .
