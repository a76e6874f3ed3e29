#!/usr/bin/env bash
# Session 2026-12-06 (11), call 3: coopmat's unaligned-rows fast path, attempt 2 (notes: the edge rule as before, the
# aligned loads as before, the words path its own loop). The unaligned-rows device test and coopmat's f16 operation
# cases; each edge config and its aligned neighbours before (build/gemmtune-base) and after, hot, interleaved.
# Carry: [".gpu-kit", "build/gemmtune", "build/gemmtune-base", "build/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s70c3
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 120 build/tests/gpu_tests \
  --gtest_filter='CooperativeMatrix.Tiles*:AllVariants/Operation.*/coopmat_f16_*' > $d/tests.log 2>&1
echo "gpu_tests rc $?" | tee -a $d/gpu.txt
grep -E '^\[  (PASSED|FAILED) |bound' $d/tests.log | head -12 | tee $d/tests.txt
bench() {  # binary config shape layout
  $1 bench --config $2 --shape $3 --layout $4 --dtype f16 --json 2>>$d/bench.log | python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$(basename $1)', '$3', '$4', '$2', round(b['median_us'],2), 'us', b['disposition'])" | tee -a $d/ab.txt
}
for round in 1 2; do
  for bin in build/gemmtune-base build/gemmtune; do
    bench $bin coopmat_f16_bm64_bn128_bk64_sgm4_sgn4_splits1 777x1234x555 nn
    bench $bin coopmat_f16_bm64_bn64_bk64_sgm4_sgn4_splits1 777x1234x555 nn
    bench $bin coopmat_f16_bm64_bn64_bk64_sgm2_sgn2_splits1_stages2 768x1280x576 nn
    bench $bin coopmat_f16_bm192_bn128_bk64_sgm4_sgn4_splits1 3000x1000x2000 nt
  done
done
cp $d/ab.txt $d/tests.txt $d/gpu.txt $OUT/
