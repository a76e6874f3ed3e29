#!/usr/bin/env bash
# Session 2026-12-07 (20), call 1 (as s82). Issue 48 step 38 (results/h200/notes.md): qrowdp's `prepass0` configs,
# op(A) quantized a chunk at a time in the workgroup's shared memory, beside the pre-pass's configs, hot, M = 1, 2, 4
# of 4096 x 14336 nt, with each pass's time. Unrun in its session (no machine). Build here first, main checked out:
#   git checkout <this commit> -- results/h200/s82 && git apply results/h200/s82/step38.patch
#   scripts/regen-prebuilt.sh && cmake --build build -j2 --target gemmtune
# Carry: [".gpu-kit", "build/gemmtune"]. About 1 minute (MS="1 2": 40 s).
set -uo pipefail
start=$(date +%s)
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/ab.txt
bench() {  # config M dtype
  build/gemmtune bench --config $1 --shape ${2}x4096x14336 --layout nt --dtype $3 --json 2>>$OUT/bench.log |
    python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
p={k: round(v,2) for k,v in b.get('passes_us',{}).items()}
print('M=$2', '$3', '$1', round(b['median_us'],2), 'us', b['disposition'], 'passes', p)" | tee -a $OUT/ab.txt
}
for m in ${MS:-1 2 4}; do
  for c in wg128_rows4_lanes2 wg256_rows4_lanes2_groups4 wg256_rows8_lanes2_groups2 wg128_rows8_lanes2_groups2; do
    bench qrowdp_f32q4_$c $m f32:q4_0
    bench qrowdp_f32q4_${c}_prepass0 $m f32:q4_0
  done
  for c in wg128_rows4_lanes2 wg256_rows4_lanes2_groups4; do
    bench qrowdp_f32q8_$c $m f32:q8_0
    bench qrowdp_f32q8_${c}_prepass0 $m f32:q8_0
  done
done
echo "all done at $(( $(date +%s) - start ))s" | tee -a $OUT/ab.txt
