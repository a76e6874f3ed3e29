#!/usr/bin/env bash
# Session 2026-12-06 (18), call 1. Issue 48 step 32 (results/h200/notes.md): qrowdp's q4_0 op(A) in one vector load a
# part (s79/step32.patch: build/gemmtune) against main (build/gemmtune-base), and step 33 (s79/step33.patch on step 32:
# q4_0's offset from the pre-pass's quarter sums; build/gemmtune-step33), hot, on qrowdp's and qrowdot's q4_0 configs
# at M = 1..8, 4096 x 14336 nt, with each pipeline's registers; ggml-vulkan as it runs; then both types' decoding tune
# with the step's binary, cold (the targets' measure).
# Build here first (main checked out, its tree clean; kernels/prebuilt rebuilt by scripts/regen-prebuilt.sh):
#   cmake --build build -j2 --target gemmtune && cp build/gemmtune build/gemmtune-base
#   git apply results/h200/s79/step32.patch && scripts/regen-prebuilt.sh && cmake --build build -j2 --target gemmtune
#   cp build/gemmtune /tmp/gemmtune-step32
#   git apply results/h200/s79/step33.patch && scripts/regen-prebuilt.sh && cmake --build build -j2 --target gemmtune
#   cp build/gemmtune build/gemmtune-step33 && cp /tmp/gemmtune-step32 build/gemmtune && git checkout -- kernels src
# Carry: [".gpu-kit", "build/gemmtune", "build/gemmtune-base", "build/gemmtune-step33"]. About 7 minutes (MS="1 2 4 8"
# TUNE=0: about 3).
set -uo pipefail
start=$(date +%s)
# MS: the M values of the A/B (default 1 2 3 4 5 8).
DEADLINE=${DEADLINE:-420}  # seconds from the start by which the tune is cut off (its journal comes back)
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/ab.txt
bench() {  # binary config M dtype [--cold]
  "$1" bench --config $2 --shape ${3}x4096x14336 --layout nt --dtype $4 ${5:-} --json 2>>$OUT/bench.log |
    python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
r=b.get('pipeline_statistics',{}).get('Register Count')
print('M=$3', '$4', '$(basename $1)', '$2', '${5:-hot}', round(b['median_us'],2), 'us', b['disposition'], 'regs', r)" |
    tee -a $OUT/ab.txt
}
both() { for b in build/gemmtune-base build/gemmtune; do bench $b "$@"; done; }
three() { for b in build/gemmtune-base build/gemmtune build/gemmtune-step33; do bench $b "$@"; done; }
for m in ${MS:-1 2 3 4 5 8}; do
  for c in wg128_rows4_lanes2 wg256_rows4_lanes2_groups2 wg256_rows4_lanes4; do
    three qrowdp_f32q4_$c $m f32:q4_0
  done
  both qrowdp_f32q8_wg256_rows4_lanes2_groups2 $m f32:q8_0
  both qrowdp_f32q8_wg128_rows4_lanes4 $m f32:q8_0
done
bench build/gemmtune qrowdot_f32q4_wg256_rows4_lanes2_splits1_groups2 1 f32:q4_0
bench build/gemmtune qrowdot_f32q4_wg64_rows8_lanes2_splits1 8 f32:q4_0
echo "A/B done at $(( $(date +%s) - start ))s" | tee -a $OUT/ab.txt
timeout 60 .gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $OUT/ggml-mmvq.jsonl 2>/dev/null
[ "${TUNE:-1}" = 1 ] || exit 0  # TUNE=0: the A/B and the anchor only
timeout 30 build/gemmtune peak --json > /tmp/peak.json 2>/dev/null
left=$((DEADLINE - ($(date +%s) - start))); [ $left -ge 20 ] || left=20
timeout -s INT $left build/gemmtune tune --shape 1x4096x14336,2x4096x14336,3x4096x14336,4x4096x14336,5x4096x14336,8x4096x14336 \
  --layout nt --dtype f32:q8_0,f32:q4_0 --budget 10 --cold --out /tmp/decode-cold.json > $OUT/decode-cold.txt 2>&1
tar czf $OUT/journals.tgz -C /tmp decode-cold.json decode-cold.json.journal.jsonl peak.json
echo "tune done at $(( $(date +%s) - start ))s" | tee -a $OUT/ab.txt
