#!/usr/bin/env bash
# Issue 48 steps 30 and 30b, hot and cold (results/h200/notes.md): s76/call1.sh's A/B of main (build/gemmtune-base),
# step 30 (build/gemmtune-step30) and step 30b (build/gemmtune), then the same winners rerun --cold with each binary,
# the decoding tune with step 30b's binary beside ggml-vulkan both ways, the M = 512 tune of f16:q4_0 beside dense f16,
# and the copy rate. Build as s76/call1.sh's header says (git history at d6b4196).
# Carry: [".gpu-kit", "build/gemmtune", "build/gemmtune-base", "build/gemmtune-step30"]. About 8 minutes.
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
ab() { for b in build/gemmtune-base build/gemmtune-step30 build/gemmtune; do bench $b "$@"; done; }
q4=qrowdot_f32q4_ q8=qrowdot_f32q8_
winners() {
  ab ${q4}wg64_rows8_lanes2_splits1 8 f32:q4_0 "$@"
  ab ${q8}wg128_rows8_lanes2_splits1 8 f32:q8_0 "$@"
  ab ${q4}wg256_rows8_lanes2_splits1_groups4 5 f32:q4_0 "$@"
  ab ${q8}wg256_rows8_lanes4_splits1_ahead2_groups2 5 f32:q8_0 "$@"
  ab ${q4}wg256_rows8_lanes4_splits1_ahead2_groups2 4 f32:q4_0 "$@"
  ab ${q4}wg128_rows8_lanes2_splits1 3 f32:q4_0 "$@"
  ab ${q4}wg256_rows4_lanes2_splits1_groups2 1 f32:q4_0 "$@"
  ab ${q4}wg128_rows8_lanes2_splits1 2 f32:q4_0 "$@"
}
winners; winners
winners --cold
timeout 150 build/gemmtune tune --shape 1x4096x14336,2x4096x14336,3x4096x14336,4x4096x14336,5x4096x14336,8x4096x14336 \
  --layout nt --dtype f32:q8_0,f32:q4_0 --budget 14 --out /tmp/decode.json > $OUT/decode.txt 2>&1
timeout 60 .gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > /tmp/ggml-mmvq.jsonl 2>/dev/null
GGML_VK_DISABLE_MMVQ=1 timeout 60 .gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > /tmp/ggml-f32act.jsonl 2>/dev/null
timeout 90 build/gemmtune tune --shape 512x4096x14336 --layout nt --dtype f16,f16:q4_0 --budget 30 \
  --out /tmp/m512.json > $OUT/m512.txt 2>&1
timeout 30 build/gemmtune peak --json > $OUT/peak.json 2>/dev/null
tar czf $OUT/journals.tgz -C /tmp decode.json decode.json.journal.jsonl m512.json m512.json.journal.jsonl \
  ggml-mmvq.jsonl ggml-f32act.jsonl bench.log
