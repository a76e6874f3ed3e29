#!/usr/bin/env bash
# Session 2026-12-06 (14), call 1 (issue 48; results/h200/notes.md steps 23 and 24): the quantized device tests, then
# A/B of the base binary (build/gemmtune-base, d9ddcf8) against this tree: coopmat's staging build loading B's words
# in load_step and decoding them after the products (M = 512), and qrowdot's `pipe1` (M = 1..8), hot.
# Carry: [".gpu-kit", "build/gemmtune", "build/gemmtune-base", "build/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s73c1
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 200 build/tests/gpu_tests --gtest_filter='*Quantized*' > $d/tests.log 2>&1
echo "gpu_tests rc $?" | tee -a $d/gpu.txt
grep -E "FAILED|PASSED|tests ran" $d/tests.log | tee -a $d/gpu.txt
bench() {  # binary config shape dtype
  "$1" bench --config $2 --shape $3 --layout nt --dtype $4 --json 2>>$d/bench.log |
    python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$3', '$4', '$(basename $1)', '$2', round(b['median_us'],2), 'us', b['disposition'])" | tee -a $d/ab.txt
}
for round in 1 2; do
  echo "round $round" >> $d/ab.txt
  bench build/gemmtune coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits2 512x4096x14336 f16
  bench build/gemmtune coopmat_f16q4_bm128_bn128_bk64_sgm2_sgn4_splits1_prepass1 512x4096x14336 f16:q4_0
  for c in bm128_bn128_bk64_sgm2_sgn4_splits1 bm128_bn128_bk64_sgm2_sgn2_splits2 bm256_bn64_bk64_sgm2_sgn2_splits2 \
           bm128_bn128_bk32_sgm2_sgn2_splits2_stages2 bm128_bn64_bk64_sgm4_sgn2_splits1; do
    for bin in build/gemmtune-base build/gemmtune; do bench $bin coopmat_f16q4_$c 512x4096x14336 f16:q4_0; done
  done
  for bin in build/gemmtune-base build/gemmtune; do
    bench $bin coopmat_f16q8_bm128_bn128_bk64_sgm2_sgn4_splits1 512x4096x14336 f16:q8_0
    bench $bin coopmat_f32q4_bm64_bn128_bk64_sgm2_sgn4_splits1 512x4096x14336 f32:q4_0
  done
  for c in "1 f32:q4_0 qrowdot_f32q4_wg256_rows8_lanes4_splits1" "1 f32:q8_0 qrowdot_f32q8_wg256_rows2_lanes4_splits1" \
           "2 f32:q4_0 qrowdot_f32q4_wg256_rows4_lanes4_splits1_ahead2_groups4" \
           "4 f32:q4_0 qrowdot_f32q4_wg256_rows8_lanes4_splits1_groups2" \
           "8 f32:q4_0 qrowdot_f32q4_wg256_rows8_lanes4_splits1_groups4"; do
    set -- $c
    bench build/gemmtune-base $3 ${1}x4096x14336 $2
    bench build/gemmtune $3 ${1}x4096x14336 $2
    bench build/gemmtune ${3}_pipe1 ${1}x4096x14336 $2
  done
  bench build/gemmtune qrowdot_f32q4_wg256_rows4_lanes4_splits1_pipe1 1x4096x14336 f32:q4_0
  bench build/gemmtune qrowdot_f32q4_wg128_rows8_lanes4_splits1_pipe1 1x4096x14336 f32:q4_0
  bench build/gemmtune qrowdot_f32q4_wg256_rows4_lanes4_splits1_ahead2_pipe1 1x4096x14336 f32:q4_0
  bench build/gemmtune qrowdot_f32q8_wg256_rows4_lanes4_splits1_pipe1 1x4096x14336 f32:q8_0
  bench build/gemmtune qrowdot_f32q8_wg256_rows2_lanes4_splits1_ahead2_pipe1 1x4096x14336 f32:q8_0
done
cp $d/ab.txt $d/gpu.txt $OUT/
tail -40 $d/tests.log > $OUT/tests-tail.txt
tail -20 $d/bench.log > $OUT/bench-log-tail.txt
