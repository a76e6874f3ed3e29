#!/usr/bin/env bash
# Session 2026-12-06 (14), call 7 (issue 48 step 27; results/h200/notes.md): qrowdot's quarters load their words without
# a branch on the block's parity (this tree) against b10cbe6's binary (build/gemmtune-base2), hot, the decoding
# winners at M = 1, 2, 4, 8, two rounds. Carry: [".gpu-kit", "build/gemmtune", "build/gemmtune-base2"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s73c7
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
bench() {  # binary config M dtype
  "$1" bench --config $2 --shape ${3}x4096x14336 --layout nt --dtype $4 --json 2>>$d/bench.log |
    python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('M=$3', '$4', '$(basename $1)', '$2', round(b['median_us'],2), 'us', b['disposition'])" | tee -a $d/ab.txt
}
for round in 1 2; do
  echo "round $round" >> $d/ab.txt
  for c in "1 f32:q4_0 qrowdot_f32q4_wg256_rows8_lanes4_splits1_ahead2_groups2" \
           "1 f32:q4_0 qrowdot_f32q4_wg256_rows8_lanes4_splits1" "1 f32:q8_0 qrowdot_f32q8_wg256_rows2_lanes4_splits1" \
           "2 f32:q4_0 qrowdot_f32q4_wg256_rows4_lanes4_splits1_ahead4_groups4" \
           "4 f32:q4_0 qrowdot_f32q4_wg256_rows8_lanes4_splits1_groups2" \
           "4 f32:q8_0 qrowdot_f32q8_wg128_rows4_lanes4_splits1_ahead2" \
           "8 f32:q4_0 qrowdot_f32q4_wg256_rows4_lanes4_splits1_ahead2_groups4" \
           "8 f32:q8_0 qrowdot_f32q8_wg256_rows4_lanes4_splits1_groups2"; do
    set -- $c
    bench build/gemmtune-base2 $3 $1 $2
    bench build/gemmtune $3 $1 $2
  done
done
cp $d/ab.txt $d/gpu.txt $OUT/
