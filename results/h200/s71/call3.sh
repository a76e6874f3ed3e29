#!/usr/bin/env bash
# Session 2026-12-06 (12), call 3: coopmat's partial last k step on the fast path (issue 43; notes). The coopmat device
# tests (the new partial-step test, unaligned rows, the operation cases); the K-tail rows and their aligned neighbours
# before (build/gemmtune-base) and after, same configs, hot, two rounds interleaved; a tune of each K-tail row.
# Carry: [".gpu-kit", "build/gemmtune", "build/gemmtune-base", "build/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s71c3
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 240 build/tests/gpu_tests \
  --gtest_filter='CooperativeMatrix.*:AllVariants/Operation.*/coopmat_*16_*' > $d/tests.log 2>&1
echo "gpu_tests rc $?" | tee -a $d/gpu.txt
grep -E '^\[  (PASSED|FAILED|SKIPPED) |Failure|disposition' $d/tests.log | head -20 | tee $d/tests.txt
bench() {  # binary config shape layout
  $1 bench --config $2 --shape $3 --layout $4 --dtype f16 --json 2>>$d/bench.log | python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$(basename $1)', '$3', '$4', '$2', round(b['median_us'],2), 'us', b['disposition'])" | tee -a $d/ab.txt
}
for round in 1 2; do
  for bin in build/gemmtune-base build/gemmtune; do
    bench $bin coopmat_f16_bm128_bn192_bk64_sgm4_sgn4_splits1 1000x3000x1000 nn
    bench $bin coopmat_f16_bm128_bn192_bk64_sgm2_sgn4_splits1 1024x3072x1024 nn
    bench $bin coopmat_f16_bm192_bn128_bk64_sgm4_sgn4_splits1 3000x1000x2000 nt
    bench $bin coopmat_f16_bm192_bn128_bk64_sgm4_sgn2_splits1 3072x1024x2048 nt
    bench $bin coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits1 2048x2048x2048 nt
    bench $bin coopmat_f16_bm128_bn128_bk64_sgm2_sgn4_splits4 512x1024x4000 nt
  done
done
tune() {  # shape layout
  build/gemmtune --shape $1 --layout $2 --dtype f16 --budget 8 --out $d/tune.json --json 2>>$d/tune.log | python3 -c "
import json,sys
for q in json.load(sys.stdin)['problems']:
  print('tune', '$1', '$2', q['best']['name'], round(q['best']['median_us'],2), 'us', q.get('evaluated'))" | tee -a $d/ab.txt
}
tune 1000x3000x1000 nn
tune 1024x3072x1024 nn
tune 3000x1000x2000 nt
cp $d/ab.txt $d/tests.txt $d/gpu.txt $OUT/
tar czf $OUT/logs.tgz -C $d tests.log bench.log tune.log tune.json 2>/dev/null
