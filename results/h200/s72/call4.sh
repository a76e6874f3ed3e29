#!/usr/bin/env bash
# Session 2026-12-06 (13), call 4: the one-pass finish with 4 vec4 sums in separate variables, every plane's loads
# before any store (attempt 4): each split config of the count with the reduce pass and with onepass1, two rounds,
# interleaved; unsplit configs on three binaries: gemmtune-base (before onepass), gemmtune-decl (onepass's
# declarations and plane writes but no finish) and gemmtune; then the device test.
# Carry: [".gpu-kit", "build/gemmtune", "build/gemmtune-base", "build/gemmtune-decl", "build/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s72c4
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
bench() {  # binary config shape layout
  $1 bench --config $2 --shape $3 --layout $4 --dtype f16 --json 2>>$d/bench.log | python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$(basename $1)', '$3', '$4', '$2', round(b['median_us'],2), 'us', b['disposition'], b.get('passes_us',''))" \
    | tee -a $d/ab.txt
}
new=build/gemmtune
for round in 1 2; do
  for one in "" _onepass1; do
    bench $new coopmat_f16_bm64_bn96_bk64_sgm4_sgn2_splits4$one 197x768x768 nt
    bench $new coopmat_f16_bm64_bn96_bk64_sgm2_sgn2_splits8$one 197x768x3072 nt
    bench $new coopmat_f16_bm128_bn128_bk64_sgm2_sgn4_splits4$one 512x1024x4096 nt
    bench $new coopmat_f16_bm192_bn96_bk64_sgm2_sgn2_splits4$one 1500x768x3072 nt
    bench $new coopmat_f16_bm64_bn128_bk64_sgm2_sgn2_splits8$one 16x4096x4096 tt
    bench $new coopmat_f16_bm96_bn128_bk64_sgm2_sgn2_splits4$one 300x1024x4096 nt
  done
done
for round in 1 2; do
  for bin in build/gemmtune-base build/gemmtune-decl $new; do
    bench $bin coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits1 4096x4096x4096 nn
    bench $bin coopmat_f16_bm128_bn192_bk64_sgm4_sgn4_splits1 1024x3072x1024 nn
    bench $bin coopmat_f16_bm64_bn96_bk64_sgm4_sgn2_splits4 197x768x768 nt
  done
done
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 120 build/tests/gpu_tests \
  --gtest_filter='CooperativeMatrix.SplitK*' > $d/tests.log 2>&1
echo "gpu_tests rc $?" | tee -a $d/gpu.txt
grep -E '^\[  (PASSED|FAILED|SKIPPED) |Failure|^\[       OK' $d/tests.log | head -20 | tee $d/tests.txt
cp $d/ab.txt $d/tests.txt $d/gpu.txt $OUT/
