#!/usr/bin/env bash
# Session 2026-12-06 (16), call 1 (issue 48 step 28; results/h200/notes.md): ggml-vulkan's q8_0 / q4_0 MUL_MAT cases
# with its integer-dot path (q8_1 activations, its default) and without it (GGML_VK_DISABLE_MMVQ=1: f32 activations,
# the path gemmtune's reference bound admits), then s74/call1.sh's A/B of step 28 (three binaries built by
# s74/build-ab.sh). Carry: [".gpu-kit", "build/gemmtune", "build/gemmtune-base", "build/gemmtune-parts"].
set -uo pipefail
source .gpu-kit/activate.sh
SECONDS=0
timeout 90 .gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $OUT/ggml-mmvq.jsonl 2>$OUT/ggml.log
GGML_VK_DISABLE_MMVQ=1 timeout 90 .gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $OUT/ggml-f32act.jsonl 2>>$OUT/ggml.log
echo "anchors: $SECONDS s" > $OUT/time.txt
timeout 360 bash results/h200/s74/call1.sh
echo "end: $SECONDS s" >> $OUT/time.txt
