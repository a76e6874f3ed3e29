#!/usr/bin/env bash
# Session 2026-12-07 (21), call 3. Issue 48 step 39 (results/h200/notes.md): qrowdp's `fused1` configs (op(A)
# quantized by the main pass's first workgroups) beside the same configs with the pre-pass, hot, M = 1, 2, 4 of
# 4096 x 14336 nt, each twice (the fused wait relies on workgroup order: a wrong result shows as `incorrect`); then
# s83/call2.sh's 8-bit tunes (the c489bb8 fix). Binary build/gemmtune-s39: c489bb8 + step 39 (uncommitted then; its patch is s83/step39.patch).
# Carry: [".gpu-kit", "build/gemmtune-s39"]. About 2 minutes (MS="1 2" REPS=1: about 1.5).
set -uo pipefail
source .gpu-kit/activate.sh
bin=build/gemmtune-s39
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/ab.txt
bench() {  # config M dtype
  $bin bench --config $1 --shape ${2}x4096x14336 --layout nt --dtype $3 --json 2>>$OUT/ab.log |
    python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
p={k: round(v,2) for k,v in b.get('passes_us',{}).items()}
print('M=$2', '$3', '$1', round(b['median_us'],2), 'us', b['disposition'], 'passes', p)" | tee -a $OUT/ab.txt
}
for m in ${MS:-1 2 4}; do
  for c in wg128_rows4_lanes2 wg256_rows8_lanes2_groups2 wg128_rows8_lanes2; do
    for r in $(seq ${REPS:-2}); do bench qrowdp_f32q4_$c $m f32:q4_0; bench qrowdp_f32q4_${c}_fused1 $m f32:q4_0; done
  done
  for c in wg128_rows4_lanes2 wg256_rows4_lanes2_groups2; do
    for r in $(seq ${REPS:-2}); do bench qrowdp_f32q8_$c $m f32:q8_0; bench qrowdp_f32q8_${c}_fused1 $m f32:q8_0; done
  done
done
cp $bin build/gemmtune
bash results/h200/s83/call2.sh
