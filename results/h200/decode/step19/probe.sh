#!/usr/bin/env bash
# Issue 18, after step 19: fewrows at M = 1 with rows aligned (N = 51864) and not (N = 51865), f32 and f16 nn, a few
# configs each (step19/probe-space.json), to tell the unaligned-unit path's cost from the 16-bit path's.
# Carry .gpu-kit and build/gemmtune: source .gpu-kit/activate.sh && results/h200/decode/step19/probe.sh OUT_DIR
set -uo pipefail
out=${1:?usage: probe.sh OUT_DIR}
bin=./build/gemmtune
mkdir -p "$out"
for dtype in f32 f16; do
  timeout 100 $bin --shape 1x51864x768,1x51865x768 --layout nn --variants fewrows --strategy exhaustive --dtype $dtype \
    --space results/h200/decode/step19/probe-space.json --samples 5 --screen-warmup 0.05 --budget 40 --out "$out/table.json" >> "$out/tune.log" 2>&1
done
python3 results/h200/decode/list-configs.py "$out/table.json.journal.jsonl" > "$out/configs.txt"
cat "$out/configs.txt"
