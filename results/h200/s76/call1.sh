#!/usr/bin/env bash
# Issue 48 steps 30 and 30b (results/h200/notes.md; written in the session of 2026-12-06 (16) for the next): qrowdot's
# codes-first path holding one run of codes (branch issue48-step30: build/gemmtune-step30) and, on it, the
# op(A)-first path holding one run of op(A) (branch issue48-step30b: build/gemmtune), against main
# (build/gemmtune-base), hot, the decoding winners of M = 3, 4, 5, 8 and rows-8 configs at 4096 x 14336 nt, with each
# pipeline's registers; then the decoding tune with the better branch's binary (build/gemmtune) at M = 1..8 beside
# ggml-vulkan both ways. Build here first (main checked out, its tree clean):
#   cmake --build build -j2 --target gemmtune && cp build/gemmtune build/gemmtune-base
#   git checkout issue48-step30 -- kernels/gemm_qrowdot.comp && cmake --build build -j2 --target gemmtune
#   cp build/gemmtune build/gemmtune-step30
#   git checkout issue48-step30b -- kernels/gemm_qrowdot.comp && cmake --build build -j2 --target gemmtune
#   git checkout main -- kernels/gemm_qrowdot.comp
# Carry: [".gpu-kit", "build/gemmtune", "build/gemmtune-base", "build/gemmtune-step30"]. About 4 minutes.
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/ab.txt
bench() {  # binary config M dtype
  "$1" bench --config $2 --shape ${3}x4096x14336 --layout nt --dtype $4 --json 2>>/tmp/bench.log |
    python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
r=b.get('pipeline_statistics',{}).get('Register Count')
print('M=$3', '$4', '$(basename $1)', '$2', round(b['median_us'],2), 'us', b['disposition'], 'regs', r)" |
    tee -a $OUT/ab.txt
}
ab() { for b in build/gemmtune-base build/gemmtune-step30 build/gemmtune; do bench $b "$@"; done; }
q4=qrowdot_f32q4_ q8=qrowdot_f32q8_
for round in 1 2; do
  ab ${q4}wg64_rows8_lanes2_splits1 8 f32:q4_0
  ab ${q8}wg128_rows8_lanes2_splits1 8 f32:q8_0
  ab ${q4}wg256_rows8_lanes2_splits1_groups4 5 f32:q4_0
  ab ${q8}wg256_rows8_lanes4_splits1_ahead2_groups2 5 f32:q8_0
  ab ${q4}wg256_rows8_lanes4_splits1_ahead2_groups2 4 f32:q4_0
  ab ${q4}wg128_rows8_lanes2_splits1 3 f32:q4_0
  ab ${q4}wg256_rows4_lanes2_splits1_groups2 1 f32:q4_0
  ab ${q4}wg128_rows8_lanes2_splits1 2 f32:q4_0
done
timeout 150 build/gemmtune tune --shape 1x4096x14336,2x4096x14336,3x4096x14336,4x4096x14336,5x4096x14336,8x4096x14336 \
  --layout nt --dtype f32:q8_0,f32:q4_0 --budget 14 --out /tmp/decode.json > $OUT/decode.txt 2>&1
cp /tmp/decode.json /tmp/decode.json.journal.jsonl $OUT/
timeout 60 .gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $OUT/ggml-mmvq.jsonl 2>/dev/null
GGML_VK_DISABLE_MMVQ=1 timeout 60 .gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $OUT/ggml-f32act.jsonl 2>/dev/null
timeout 30 build/gemmtune peak --json > $OUT/peak.json 2>/dev/null
