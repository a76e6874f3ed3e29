#!/usr/bin/env bash
# Session 2026-12-06 (15), call 1 (issue 48 step 28; results/h200/notes.md): qrowdot's halves (lanes 2) and the
# smaller of codes and op(A) held (build/gemmtune-parts), q4_0's nibbles decoded in place (build/gemmtune, this tree),
# against efb68d2's parent's binary (build/gemmtune-base), hot, at M = 1, 2, 4, 8 of 4096 x 14336 nt. The most telling
# runs first and each line written as it comes (the call may end at its limit). Carry: [".gpu-kit", "build/gemmtune",
# "build/gemmtune-base", "build/gemmtune-parts"].
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/ab.txt
bench() {  # binary config M dtype
  "$1" bench --config $2 --shape ${3}x4096x14336 --layout nt --dtype $4 --json 2>>$OUT/bench.log |
    python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('M=$3', '$4', '$(basename $1)', '$2', round(b['median_us'],2), 'us', b['disposition'])" | tee -a $OUT/ab.txt
}
all3() { for b in base parts ''; do bench build/gemmtune${b:+-$b} "$@"; done; }
q4=qrowdot_f32q4_ q8=qrowdot_f32q8_
SECONDS=0
all3 ${q4}wg256_rows8_lanes4_splits1_ahead2_groups2 1 f32:q4_0
for c in wg128_rows8_lanes2_splits1 wg256_rows8_lanes2_splits1 wg256_rows8_lanes2_splits1_groups2 \
         wg128_rows4_lanes2_splits1_ahead2 wg256_rows4_lanes2_splits1_ahead2_groups2; do
  bench build/gemmtune ${q4}$c 1 f32:q4_0
done
bench build/gemmtune-base ${q8}wg256_rows2_lanes4_splits1 1 f32:q8_0
bench build/gemmtune ${q8}wg256_rows2_lanes4_splits1 1 f32:q8_0
for c in wg256_rows2_lanes2_splits1 wg128_rows2_lanes2_splits1 wg256_rows4_lanes2_splits1; do
  bench build/gemmtune ${q8}$c 1 f32:q8_0
done
echo "after M = 1: $SECONDS s" | tee -a $OUT/ab.txt
all3 ${q4}wg256_rows8_lanes4_splits1_groups2 4 f32:q4_0
bench build/gemmtune ${q4}wg256_rows8_lanes2_splits1_groups2 4 f32:q4_0
all3 ${q4}wg256_rows4_lanes4_splits1_ahead2_groups4 8 f32:q4_0
bench build/gemmtune ${q4}wg256_rows4_lanes2_splits1_groups4 8 f32:q4_0
all3 ${q4}wg256_rows4_lanes4_splits1_ahead4_groups4 2 f32:q4_0
bench build/gemmtune ${q4}wg256_rows4_lanes2_splits1_ahead2_groups4 2 f32:q4_0
bench build/gemmtune ${q4}wg128_rows8_lanes2_splits1 2 f32:q4_0
all3 ${q4}wg256_rows8_lanes4_splits1 1 f32:q4_0
echo "after the A/B: $SECONDS s" | tee -a $OUT/ab.txt
# What the search finds in the new space at M = 1 (q4_0), if time is left.
build/gemmtune --shape 1x4096x14336 --layout nt --dtype f32:q4_0 --kernels 'qrowdot_*' --budget 10 \
  --out /tmp/t.json --json > $OUT/tune-m1.json 2>>$OUT/bench.log
echo "end: $SECONDS s" | tee -a $OUT/ab.txt
