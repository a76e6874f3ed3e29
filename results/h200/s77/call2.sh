#!/usr/bin/env bash
# Issue 48 step 31, q8_0 (results/h200/notes.md): session (16)'s tuned qrowdot winners at M = 2, 3, 4, 5, 8 against
# qrowdp with the same streaming parameters and with those call 1's short tune chose, hot, two rounds; q4_0 at M = 8
# likewise. Binary: this tree (build/gemmtune). Carry: [".gpu-kit", "build/gemmtune"]. About 2 minutes.
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/ab.txt
bench() {  # config M dtype
  build/gemmtune bench --config $1 --shape ${2}x4096x14336 --layout nt --dtype $3 --json 2>>$OUT/bench.log |
    python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
r=b.get('pipeline_statistics',{}).get('Register Count')
print('M=$2', '$3', '$1', round(b['median_us'],2), 'us', b['disposition'], 'regs', r)" | tee -a $OUT/ab.txt
}
d=qrowdot_f32q8_ p=qrowdp_f32q8_
for round in 1 2; do
  for m in 2 3 4 5 8; do
    case $m in
      2) bench ${d}wg256_rows8_lanes4_splits1 2 f32:q8_0; bench ${p}wg256_rows8_lanes4 2 f32:q8_0 ;;
      3) bench ${d}wg128_rows8_lanes2_splits1 3 f32:q8_0; bench ${p}wg128_rows8_lanes2 3 f32:q8_0 ;;
      4|5) bench ${d}wg256_rows8_lanes4_splits1_ahead2_groups2 $m f32:q8_0
           bench ${p}wg256_rows8_lanes4_ahead2_groups2 $m f32:q8_0 ;;
      8) bench ${d}wg128_rows8_lanes2_splits1 8 f32:q8_0; bench ${p}wg128_rows8_lanes2 8 f32:q8_0 ;;
    esac
    for c in wg64_rows2_lanes2_ahead4 wg64_rows2_lanes2_ahead2 wg128_rows4_lanes2 wg128_rows4_lanes4_ahead2 \
      wg256_rows4_lanes2_groups2; do bench ${p}$c $m f32:q8_0; done
  done
  for c in wg128_rows4_lanes2 wg64_rows2_lanes2_ahead2 wg256_rows4_lanes4; do bench qrowdp_f32q4_$c 8 f32:q4_0; done
done
