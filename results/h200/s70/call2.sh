#!/usr/bin/env bash
# Session 2026-12-06 (11), call 2: issue 43's edge row with unaligned rows on coopmat's fast staging path. The device
# tests of coopmat (every layout; the new unaligned-rows test), then each edge config and its aligned neighbours with
# the kernel before (build/gemmtune-base, HEAD's parent) and after, hot, interleaved; the edge rows tuned with both
# (--budget 12); qrowmma's restored step-20 form at q4_0 M = 8 beside qrowdot (issue 48).
# Carry: [".gpu-kit", "build/gemmtune", "build/gemmtune-base", "build/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s70c2
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 200 build/tests/gpu_tests \
  --gtest_filter='CooperativeMatrix.*:AllVariants/Operation.*/coopmat_*' > $d/tests.log 2>&1
echo "gpu_tests rc $?" | tee -a $d/gpu.txt
grep -E '^\[  (PASSED|FAILED|SKIPPED) |Failure|passed.*: ' $d/tests.log | head -30 | tee $d/tests.txt
bench() {  # binary config shape layout dtype
  $1 bench --config $2 --shape $3 --layout $4 --dtype $5 --json 2>>$d/bench.log | python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$(basename $1)', '$3', '$4', '$2', round(b['median_us'],2), 'us', b['disposition'])" | tee -a $d/ab.txt
}
for round in 1 2; do
  for bin in build/gemmtune-base build/gemmtune; do
    for c in coopmat_f16_bm64_bn128_bk64_sgm4_sgn4_splits1 coopmat_f16_bm64_bn64_bk64_sgm4_sgn4_splits1; do
      bench $bin $c 777x1234x555 nn f16
    done
    bench $bin coopmat_f16_bm64_bn64_bk64_sgm2_sgn2_splits1_stages2 768x1280x576 nn f16
    bench $bin coopmat_f16_bm192_bn128_bk64_sgm4_sgn4_splits1 3000x1000x2000 nt f16
    bench $bin coopmat_f16_bm128_bn192_bk64_sgm4_sgn4_splits1 1000x3000x1000 nn f16
  done
done
for bin in build/gemmtune-base build/gemmtune; do
  for s in "777x1234x555 nn" "1000x3000x1000 nn"; do
    set -- $s
    $bin --shape $1 --layout $2 --dtype f16 --budget 12 --out $d/t-$(basename $bin).json --json 2>>$d/tune.log |
      python3 -c "
import json,sys
for p in json.load(sys.stdin)['problems']:
  print('$(basename $bin) tune', '$1', '$2', p['best']['name'], round(p['best']['median_us'],2), 'us', p['evaluated'], 'evaluated')" |
      tee -a $d/ab.txt
  done
done
for c in qrowmma_f32q4_sgk16_frags2_unroll1 qrowdot_f32q4_wg256_rows4_lanes4_splits1_ahead4_groups4; do
  bench build/gemmtune $c 8x4096x14336 nt f32:q4_0
done
cp $d/ab.txt $d/tests.txt $d/gpu.txt $OUT/
tar czf $OUT/call.tgz -C $d .
