#!/usr/bin/env bash
# Session 2026-12-06 (16), call 4 (issue 48 step 29, branch issue48-step29; results/h200/notes.md): step 28's tuned
# winners with f32 products (build/gemmtune-base, main) and the same with `_products16` (build/gemmtune-step29), hot,
# 1x4096x14336 nt, the most telling first, each line written as it comes. Carry: [".gpu-kit",
# "build/gemmtune-base", "build/gemmtune-step29"].
set -uo pipefail
source .gpu-kit/activate.sh
bench() {  # binary config M dtype
  "$1" bench --config $2 --shape ${3}x4096x14336 --layout nt --dtype $4 --json 2>>$OUT/bench.log |
    python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('M=$3', '$4', '$(basename $1)', '$2', round(b['median_us'],2), 'us', b['disposition'], '%.1e' % b['error'])" |
    tee -a $OUT/ab.txt
}
ab() { bench build/gemmtune-base $1 $2 $3; bench build/gemmtune-step29 ${1}_products16 $2 $3; }
q4=qrowdot_f32q4_ q8=qrowdot_f32q8_
ab ${q4}wg64_rows8_lanes2_splits1 8 f32:q4_0
ab ${q4}wg256_rows4_lanes2_splits1_groups2 1 f32:q4_0
ab ${q8}wg128_rows8_lanes2_splits1 8 f32:q8_0
ab ${q4}wg256_rows8_lanes4_splits1_ahead2_groups2 4 f32:q4_0
ab ${q8}wg256_rows2_lanes4_splits1_ahead2 1 f32:q8_0
ab ${q4}wg128_rows8_lanes2_splits1 2 f32:q4_0
