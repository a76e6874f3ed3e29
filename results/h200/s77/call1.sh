#!/usr/bin/env bash
# Issue 48 steps 30, 30b and 31, hot and cold (results/h200/notes.md): the decoding winners at 4096 x 14336 nt with
# main's qrowdot (build/gemmtune-base), step 30's (build/gemmtune-step30), step 30b's (build/gemmtune-step30b), and
# step 31's qrowdp with the same streaming parameters (build/gemmtune: this tree), each with its registers; then
# ggml-vulkan both ways; the copy rate; four winners --cold (main and qrowdp); the decoding tune with this tree
# (qrowdot and qrowdp both swept). Build here first: main's tree -> build/gemmtune-base; branch issue48-step30's
# and issue48-step30b's kernels/gemm_qrowdot.comp -> build/gemmtune-step30 and -step30b; this tree -> build/gemmtune.
# Carry: [".gpu-kit", "build/gemmtune", "build/gemmtune-base", "build/gemmtune-step30", "build/gemmtune-step30b"].
# About 5 minutes; what it wrote under $OUT comes back where the call's limit stops it.
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/ab.txt
bench() {  # binary config M dtype [--cold]
  "$1" bench --config $2 --shape ${3}x4096x14336 --layout nt --dtype $4 ${5:-} --json 2>>/tmp/bench.log |
    python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
r=b.get('pipeline_statistics',{}).get('Register Count')
print('M=$3', '$4', '$(basename $1)', '$2', '${5:-hot}', round(b['median_us'],2), 'us', b['disposition'], 'regs', r)" |
    tee -a $OUT/ab.txt
}
ab() {  # qrowdot-params M dtype [--cold]
  local dot=$(echo qrowdot_$1 | sed 's/\(lanes[0-9]\)/\1_splits1/')
  for b in build/gemmtune-base build/gemmtune-step30 build/gemmtune-step30b; do bench $b $dot "${@:2}"; done
  bench build/gemmtune qrowdp_$1 "${@:2}"
}
winners() {
  ab f32q4_wg64_rows8_lanes2 8 f32:q4_0 "$@"
  ab f32q8_wg128_rows8_lanes2 8 f32:q8_0 "$@"
  ab f32q4_wg256_rows8_lanes2_groups4 5 f32:q4_0 "$@"
  ab f32q8_wg256_rows8_lanes4_ahead2_groups2 5 f32:q8_0 "$@"
  ab f32q4_wg256_rows8_lanes4_ahead2_groups2 4 f32:q4_0 "$@"
  ab f32q4_wg128_rows8_lanes2 3 f32:q4_0 "$@"
  ab f32q4_wg256_rows4_lanes2_groups2 1 f32:q4_0 "$@"
  ab f32q8_wg256_rows2_lanes4 1 f32:q8_0 "$@"
  ab f32q4_wg128_rows8_lanes2 2 f32:q4_0 "$@"
}
winners
timeout 60 .gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $OUT/ggml-mmvq.jsonl 2>/dev/null
GGML_VK_DISABLE_MMVQ=1 timeout 60 .gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $OUT/ggml-f32act.jsonl 2>/dev/null
timeout 30 build/gemmtune peak --json > $OUT/peak.json 2>/dev/null
for args in "f32q4_wg256_rows4_lanes2_groups2 1 f32:q4_0" "f32q8_wg256_rows2_lanes4 1 f32:q8_0" \
  "f32q4_wg256_rows8_lanes4_ahead2_groups2 4 f32:q4_0" "f32q4_wg64_rows8_lanes2 8 f32:q4_0"; do
  set -- $args
  bench build/gemmtune-base $(echo qrowdot_$1 | sed 's/\(lanes[0-9]\)/\1_splits1/') $2 $3 --cold
  bench build/gemmtune qrowdp_$1 $2 $3 --cold
done
timeout 100 build/gemmtune tune --shape 1x4096x14336,2x4096x14336,3x4096x14336,4x4096x14336,5x4096x14336,8x4096x14336 \
  --layout nt --dtype f32:q8_0,f32:q4_0 --budget 6 --out $OUT/decode.json > $OUT/decode.txt 2>&1
cp /tmp/bench.log $OUT/
