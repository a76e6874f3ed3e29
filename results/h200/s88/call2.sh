#!/usr/bin/env bash
# Session 2026-12-07 (24), call 2: issue 43 step 41, the matrix-unit kernels' epilogue barriers on shared memory
# only. A/B, two rounds alternating, base binary (build/gemmtune-base) against new: the small-K scores, mid-size
# and square coopmat rows, the 8-bit and bf16x6 epilogues, rowmma; then the device tests of the changed kernels.
# Carry: [".gpu-kit", "build/gemmtune", "build/gemmtune-base", "build-test/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s88c2
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
bench() {  # binary dtype layout config shape
  $1 bench --config $4 --shape $5 --layout $3 --dtype $2 --json 2>>$d/bench.log | python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$(basename $1)', '$5', '$2', '$3', '$4', round(b['median_us'],2), 'us', b['disposition'])" | tee -a $d/ab.txt
}
for round in 1 2; do
  for bin in build/gemmtune-base build/gemmtune; do
    bench $bin f16 nt coopmat_f16_bm192_bn128_bk64_sgm4_sgn4_splits1 2048x2048x128x32
    bench $bin f16 nt coopmat_f16_bm192_bn128_bk64_sgm4_sgn4_splits1 2048x2048x16x32
    bench $bin f16 nt coopmat_f16_bm128_bn64_bk64_sgm4_sgn2_splits1 2048x2048x128x32
    bench $bin f16 nt coopmat_f16_bm192_bn128_bk64_sgm4_sgn4_splits1 2048x2048x64x12
    bench $bin f16 nt coopmat_f16_bm256_bn128_bk32_sgm4_sgn4_splits1 512x512x128x32
    bench $bin f16 nt coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits1 1500x2304x768
    bench $bin f16 nt coopmat_f16_bm128_bn192_bk64_sgm2_sgn4_splits4 1024x768x3072
    bench $bin f16 nt coopmat_f16_bm128_bn128_bk64_sgm2_sgn4_splits1 512x4096x4096
    bench $bin f16 nn coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits1 4096x4096x4096
    bench $bin bf16 nt coopmat_bf16_bm192_bn128_bk64_sgm4_sgn4_splits1 2048x2048x128x32
    bench $bin i8 nt coopmat_i8_bm64_bn96_bk128_sgm4_sgn2_splits1 1024x768x3072
    bench $bin i8 nt coopmat_i8_bm128_bn128_bk128_sgm2_sgn2_splits1 2048x2048x128x32
    bench $bin f32 nn bf16x6_f32_bm64_bn64_bk16_sgm2_sgn2_splits1_stages2_prepass1 777x1234x555
    bench $bin f16 tt rowmma_f16_sgk16_frags2_unroll2_wide0_regs1 16x4096x4096
  done
done
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 200 build-test/tests/gpu_tests \
  --gtest_filter='AllVariants/Operation.*coopmat*:AllVariants/Operation.*bf16x6*:CooperativeMatrix.*:RowMma.*:IntegerGemm.*:EmulatedF32.*:EveryTypeAndLayout/*' > $d/tests.log 2>&1
echo "gpu_tests rc $?" | tee -a $d/gpu.txt
grep -E '^\[  (PASSED|FAILED|SKIPPED) |tests ran' $d/tests.log | tee $d/tests.txt
grep -B2 -A6 Failure $d/tests.log | head -40 > $d/failures.txt
cp $d/ab.txt $d/tests.txt $d/failures.txt $d/gpu.txt $OUT/
