#!/usr/bin/env bash
# Session 2026-12-06 (14), call 5 (issue 48 step 26; results/h200/notes.md): qrowdot's quarters decoded in f16 pairs
# (build/gemmtune-f16p: this tree with s73/qrowdot-f16-pairs.patch applied) against this tree's binary, hot, the
# decoding winners at M = 1, 2, 4, 8, two rounds. Carry: [".gpu-kit", "build/gemmtune", "build/gemmtune-f16p"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s73c5
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
  for c in "1 f32:q4_0 qrowdot_f32q4_wg256_rows8_lanes4_splits1" "1 f32:q4_0 qrowdot_f32q4_wg256_rows4_lanes4_splits1" \
           "1 f16:q4_0 qrowdot_f16q4_wg256_rows8_lanes4_splits1" "1 f32:q8_0 qrowdot_f32q8_wg256_rows2_lanes4_splits1" \
           "2 f32:q4_0 qrowdot_f32q4_wg256_rows4_lanes4_splits1_ahead4_groups4" \
           "2 f32:q8_0 qrowdot_f32q8_wg256_rows2_lanes4_splits1" \
           "4 f32:q4_0 qrowdot_f32q4_wg256_rows8_lanes4_splits1_groups2" \
           "4 f32:q8_0 qrowdot_f32q8_wg128_rows4_lanes4_splits1_ahead2" \
           "8 f32:q4_0 qrowdot_f32q4_wg256_rows8_lanes4_splits1_groups4" \
           "8 f32:q8_0 qrowdot_f32q8_wg256_rows4_lanes4_splits1_groups4"; do
    set -- $c
    bench build/gemmtune $3 $1 $2
    bench build/gemmtune-f16p $3 $1 $2
  done
done
cp $d/ab.txt $d/gpu.txt $OUT/
tail -20 $d/bench.log > $OUT/bench-log-tail.txt
