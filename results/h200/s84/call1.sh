#!/usr/bin/env bash
# Session 2026-12-07 (22), call 1. Issue 48 step 39 (results/h200/notes.md): ggml-vulkan's q8_0 / q4_0 MUL_MAT
# cases as they run, then s83/call3.sh's hot A/B (qrowdp's `fused1` configs beside the same configs with the
# pre-pass, M = 1, 2, 4 of 4096 x 14336 nt; a wrong fused wait shows as `incorrect`), no 8-bit tunes (the bench of
# call 2 runs them). Binary build/gemmtune-s39: 751c0e6 + s83/step39.patch, `scripts/regen-prebuilt.sh`, built.
# Carry: [".gpu-kit", "build/gemmtune-s39"]. About 3 minutes.
set -uo pipefail
start=$(date +%s)
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
timeout 60 .gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $OUT/ggml-mmvq.jsonl 2>/dev/null
sed '/^cp \$bin build\/gemmtune$/d; /^bash results\/h200\/s83\/call2.sh$/d' results/h200/s83/call3.sh > /tmp/call3.sh
MS="${MS:-1 2 4}" REPS=${REPS:-1} bash /tmp/call3.sh
echo "A/B done at $(( $(date +%s) - start ))s" | tee -a $OUT/ab.txt
