#!/usr/bin/env bash
# Session 2026-12-07 (24), call 4: issue 43 step 43, several coopmat tiles a workgroup in turn (TILES; the next
# tile's first step loaded before the current one is written). Same binary, tiles 1 / 2 / 4, two rounds; tiles 1
# against the base binary (a2765c1) where the restructured loop must cost nothing; the coopmat device tests, the new
# edge test among them. Carry: [".gpu-kit", "build/gemmtune", "build/gemmtune-base", "build-test/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s88c4
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
bench() {  # binary dtype layout config shape
  $1 bench --config $4 --shape $5 --layout $3 --dtype $2 --json 2>>$d/bench.log | python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
s=b.get('pipeline_statistics',{})
print('$(basename $1)', '$5', '$2', '$3', '$4', round(b['median_us'],2), 'us', b['disposition'], s.get('Register Count'))" | tee -a $d/ab.txt
}
N=build/gemmtune
for round in 1 2; do
  for t in "" _tiles2 _tiles4; do
    bench $N f16 nt coopmat_f16_bm192_bn128_bk64_sgm4_sgn4_splits1$t 2048x2048x128x32
    bench $N f16 nt coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits1$t 2048x2048x128x32
    bench $N f16 nt coopmat_f16_bm128_bn64_bk64_sgm4_sgn2_splits1$t 2048x2048x128x32
    bench $N f16 nt coopmat_f16_bm192_bn128_bk64_sgm4_sgn4_splits1$t 2048x2048x16x32
    bench $N f16 nt coopmat_f16_bm192_bn128_bk64_sgm4_sgn4_splits1$t 2048x2048x64x12
    bench $N f16 nt coopmat_f16_bm256_bn128_bk32_sgm4_sgn4_splits1$t 512x512x128x32
    bench $N f16 nt coopmat_f16_bm64_bn128_bk32_sgm2_sgn2_splits1$t 2048x2048x64x12
  done
  bench $N bf16 nt coopmat_bf16_bm192_bn128_bk64_sgm4_sgn4_splits1_tiles2 2048x2048x128x32
  for bin in build/gemmtune-base $N; do
    bench $bin f16 nt coopmat_f16_bm192_bn128_bk64_sgm4_sgn4_splits1 2048x2048x128x32
    bench $bin f16 nt coopmat_f16_bm128_bn192_bk64_sgm2_sgn4_splits4 1024x768x3072
    bench $bin f16 nn coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits1 4096x4096x4096
    bench $bin f16:q4_0 nt coopmat_f16q4_bm128_bn128_bk64_sgm2_sgn4_splits1_prepass1 512x4096x14336
  done
done
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 200 build-test/tests/gpu_tests \
  --gtest_filter='CooperativeMatrix.*:AllVariants/Operation.*coopmat_f16_nt:AllVariants/Operation.*coopmat_f16_tn' \
  > $d/tests.log 2>&1
echo "gpu_tests rc $?" | tee -a $d/gpu.txt
grep -E '^\[ +(OK|PASSED|FAILED|SKIPPED) ' $d/tests.log | tee $d/tests.txt
grep -B2 -A8 Failure $d/tests.log | head -60 > $d/failures.txt
cp $d/ab.txt $d/tests.txt $d/failures.txt $d/gpu.txt $OUT/
