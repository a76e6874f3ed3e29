#!/usr/bin/env bash
# The screening warm-up floor with warm pipeline caches (results/h200/notes.md, "Screening warm-up floor": the
# s85/call1.sh probe ran with none). Five of the models suite's short f16 lines: first a tune at `--budget 20` that
# fills the persistent pipeline cache (and the driver's), then `--budget 6` tunes with the default warm-up and with
# `--screen-warmup 0.005` on those caches, ROUNDS times (default 2) in alternating order, each into a fresh table.
# Compared: configs screened and the best's time. Binary build/gemmtune. Carry: [".gpu-kit", "build/gemmtune"].
# About 40 s, then 70 s a round.
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
small="decode-m4-nn|vit-b16-attn-out|bert-b8-attn-out|decode-m8-tn|attn-d64-t512-context"
grep -E "^($small) " configs/shapes/models.txt > /tmp/small.txt
build/gemmtune --shapes-file /tmp/small.txt --dtype f16 --budget 20 --out /tmp/fill.json > /tmp/fill.log 2>&1
grep -E "on NVIDIA" /tmp/fill.log | sed "s/^/fill: /" | tee -a $OUT/warmup.txt
tune() {  # tag [options]
  local tag=$1; shift
  build/gemmtune --shapes-file /tmp/small.txt --dtype f16 --budget 6 "$@" --out /tmp/$tag.json > /tmp/$tag.log 2>&1
  grep -E "on NVIDIA|a config took|  best:" /tmp/$tag.log | sed "s/^/$tag: /" | tee -a $OUT/warmup.txt
}
for round in $(seq ${ROUNDS:-2}); do
  if [ $((round % 2)) = 1 ]; then tune default-r$round; tune w5ms-r$round --screen-warmup 0.005
  else tune w5ms-r$round --screen-warmup 0.005; tune default-r$round; fi
done
tar czf $OUT/logs.tgz -C /tmp fill.log $(cd /tmp && ls default-r*.log w5ms-r*.log)
