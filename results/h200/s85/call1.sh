#!/usr/bin/env bash
# Session 2026-12-07 (22), call 4. The tuner's owed first screen (results/h200/notes.md, "The tuner: a slow first
# build no longer takes the share") against the binary before it: the decode suite's Whisper-logits lines (1..16 x
# 51865 x 768 nt, f32, f16 and bf16, `--budget 8` a shape as scripts/gpu-bench.sh tunes them), each binary in a fresh
# process with no pipeline cache of its own nor the driver's, the binary before first and after second, ROUNDS
# times (default 2).
# Binaries: build/gemmtune-base (8cef715) and build/gemmtune (this commit). Carry: [".gpu-kit", "build/gemmtune",
# "build/gemmtune-base"]. About 2 minutes a round.
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
grep whisper configs/shapes/decode.txt > /tmp/whisper.txt
export __GL_SHADER_DISK_CACHE=0
for round in $(seq ${ROUNDS:-2}); do
  for bin in build/gemmtune-base build/gemmtune; do
    tag=$(basename $bin)-r$round
    $bin --no-pipeline-cache --shapes-file /tmp/whisper.txt --dtype f32,f16,bf16 --budget 8 --out /tmp/$tag.json \
      > /tmp/$tag.log 2>&1
    grep -E "on NVIDIA|a config took|  best:" /tmp/$tag.log | sed "s/^/$tag: /" | tee -a $OUT/owed.txt
  done
done
tar czf $OUT/logs.tgz -C /tmp $(cd /tmp && ls gemmtune*-r*.log)
