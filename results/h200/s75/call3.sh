#!/usr/bin/env bash
# Session 2026-12-06 (16), call 3: step 28's halves (lanes 2) on the parts binary (q4_0 in f16 pairs) at M = 1, 2
# beside main's lanes-4 winner, hot; then s74/call2.sh (issue 43: four problems at --budget 10 beside 90-s truths).
# Carry: [".gpu-kit", "build/gemmtune", "build/gemmtune-parts"].
set -uo pipefail
source .gpu-kit/activate.sh
q4=qrowdot_f32q4_
for run in "gemmtune ${q4}wg256_rows8_lanes4_splits1_ahead2_groups2 1" "gemmtune-parts ${q4}wg256_rows8_lanes2_splits1 1" \
           "gemmtune-parts ${q4}wg256_rows8_lanes2_splits1_groups2 1" "gemmtune-parts ${q4}wg128_rows8_lanes2_splits1 1" \
           "gemmtune ${q4}wg256_rows4_lanes4_splits1_ahead4_groups4 2" "gemmtune-parts ${q4}wg128_rows8_lanes2_splits1 2" \
           "gemmtune-parts ${q4}wg256_rows8_lanes2_splits1 2"; do
  set -- $run
  build/$1 bench --config $2 --shape ${3}x4096x14336 --layout nt --dtype f32:q4_0 --json 2>>$OUT/ab2.log |
    python3 -c "import json,sys; b=json.load(sys.stdin)['results'][0]; print('M=$3 $1 $2', round(b['median_us'],2), b['disposition'])" |
    tee -a $OUT/ab2.txt
done
timeout 480 bash results/h200/s74/call2.sh
