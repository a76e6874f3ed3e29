#!/usr/bin/env bash
# Session 2026-12-07 (22), call 4. The screening warm-up's 20-ms floor (results/h200/notes.md, "Screening warm-up
# floor"): small problems outside the standard suite (the models suite's shortest lines, f16) tuned at `--budget 6` with
# the default warm-up (3x the idle, 20 ms to 1 s) and with `--screen-warmup 0.005`, each in a fresh process with no
# pipeline cache of its own nor the driver's, ROUNDS times (default 2) in alternating order. Compared: configs
# screened and the best's time (the finals warm up fully in both). Binary build/gemmtune. Carry: [".gpu-kit",
# "build/gemmtune"]. About 70 s a round.
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
small="decode-m4-nn|vit-b16-attn-out|bert-b8-attn-out|decode-m8-tn|attn-d64-t512-context"
grep -E "^($small) " configs/shapes/models.txt > /tmp/small.txt
cat /tmp/small.txt >> $OUT/gpu.txt
export __GL_SHADER_DISK_CACHE=0
tune() {  # tag [options]
  local tag=$1; shift
  build/gemmtune --no-pipeline-cache --shapes-file /tmp/small.txt --dtype f16 --budget 6 "$@" --out /tmp/$tag.json \
    > /tmp/$tag.log 2>&1
  grep -E "on NVIDIA|a config took|  best:" /tmp/$tag.log | sed "s/^/$tag: /" | tee -a $OUT/warmup.txt
}
for round in $(seq ${ROUNDS:-2}); do
  if [ $((round % 2)) = 1 ]; then tune default-r$round; tune w5ms-r$round --screen-warmup 0.005
  else tune w5ms-r$round --screen-warmup 0.005; tune default-r$round; fi
done
tar czf $OUT/logs.tgz -C /tmp $(cd /tmp && ls default-r*.log w5ms-r*.log)
