#!/usr/bin/env bash
# Session 2026-12-06 (14), call 3 (issue 48 step 25; results/h200/notes.md): the quantized device tests, then A/B of the
# decoding winners with and without `runs1` (teams copy runs of 8 blocks with 16-byte loads), hot, and cold for M = 1.
# Carry: [".gpu-kit", "build/gemmtune", "build/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s73c3
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 200 build/tests/gpu_tests --gtest_filter='*Quantized*' > $d/tests.log 2>&1
echo "gpu_tests rc $?" | tee -a $d/gpu.txt
grep -E "FAILED|PASSED|tests ran" $d/tests.log | tee -a $d/gpu.txt
bench() {  # config M dtype [extra]
  build/gemmtune bench --config $1 --shape ${2}x4096x14336 --layout nt --dtype $3 ${4:-} --json 2>>$d/bench.log |
    python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('M=$2', '$3', '$1', '${4:-}', round(b['median_us'],2), 'us', b['disposition'])" | tee -a $d/ab.txt
}
for round in 1 2; do
  echo "round $round" >> $d/ab.txt
  for c in "1 f32:q4_0 qrowdot_f32q4_wg256_rows8_lanes4_splits1" "1 f32:q4_0 qrowdot_f32q4_wg256_rows4_lanes4_splits1" \
           "1 f32:q4_0 qrowdot_f32q4_wg128_rows8_lanes4_splits1" "1 f32:q4_0 qrowdot_f32q4_wg64_rows8_lanes4_splits1" \
           "1 f32:q8_0 qrowdot_f32q8_wg256_rows2_lanes4_splits1" "1 f32:q8_0 qrowdot_f32q8_wg128_rows4_lanes4_splits1" \
           "1 f16:q4_0 qrowdot_f16q4_wg256_rows8_lanes4_splits1" \
           "2 f32:q4_0 qrowdot_f32q4_wg256_rows4_lanes4_splits1_groups4" \
           "4 f32:q4_0 qrowdot_f32q4_wg256_rows8_lanes4_splits1_groups2" \
           "8 f32:q4_0 qrowdot_f32q4_wg256_rows8_lanes4_splits1_groups4" \
           "8 f32:q8_0 qrowdot_f32q8_wg256_rows4_lanes4_splits1_groups4"; do
    set -- $c
    bench $3 $1 $2
    bench ${3}_runs1 $1 $2
  done
done
bench qrowdot_f32q4_wg256_rows8_lanes4_splits1 1 f32:q4_0 --cold
bench qrowdot_f32q4_wg256_rows8_lanes4_splits1_runs1 1 f32:q4_0 --cold
build/gemmtune peak --json > $d/peak.json 2>>$d/bench.log
cp $d/ab.txt $d/gpu.txt $d/peak.json $OUT/
tail -30 $d/tests.log > $OUT/tests-tail.txt
tail -20 $d/bench.log > $OUT/bench-log-tail.txt
