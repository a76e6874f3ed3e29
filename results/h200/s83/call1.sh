#!/usr/bin/env bash
# Session 2026-12-07 (21), call 1. Issue 48 with step 38 in the binary (build/gemmtune-s38: main + s82/step38.patch
# at 3122284, `scripts/regen-prebuilt.sh`, built): ggml-vulkan's q8_0 / q4_0 MUL_MAT cases as they run, the copy rate,
# s82/call1.sh's hot A/B (the `prepass0` configs beside the pre-pass's, M = 1, 2, 4), then the cold decoding tune of
# M = 1..5, 8 (the targets' measure) over the space with both forms. Carry: [".gpu-kit", "build/gemmtune-s38"].
# About 6 minutes (TUNE_S: the tune's seconds, default 200).
set -uo pipefail
start=$(date +%s)
source .gpu-kit/activate.sh
bin=build/ab/gemmtune
mkdir -p build/ab && cp build/gemmtune-s38 $bin
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
timeout 30 $bin peak --json > /tmp/peak.json 2>/dev/null
timeout 60 .gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $OUT/ggml-mmvq.jsonl 2>/dev/null
sed "s#build/gemmtune #$bin #; s#\$OUT/bench.log#\$OUT/ab.log#" results/h200/s82/call1.sh > build/ab/call1.sh
bash build/ab/call1.sh
echo "hot done at $(( $(date +%s) - start ))s" | tee -a $OUT/ab.txt
timeout -s INT ${TUNE_S:-200} $bin tune --shape 1x4096x14336,2x4096x14336,3x4096x14336,4x4096x14336,5x4096x14336,8x4096x14336 \
  --layout nt --dtype f32:q8_0,f32:q4_0 --budget 10 --cold --out /tmp/decode-cold.json > $OUT/decode-cold.txt 2>&1
echo "cold tune done at $(( $(date +%s) - start ))s" | tee -a $OUT/ab.txt
tar czf $OUT/journals.tgz -C /tmp decode-cold.json decode-cold.json.journal.jsonl peak.json 2>/dev/null
