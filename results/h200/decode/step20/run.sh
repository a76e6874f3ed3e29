#!/usr/bin/env bash
# Issue 18 step 20, one H200 call: every fewrows config of step20/space.json at 1x51865x768 f16 nn and tn (with the
# driver's register counts), then the budgeted layouts run of scripts/gpu-bench.sh (M = 1, all four layouts).
# Carry .gpu-kit and build/gemmtune: source .gpu-kit/activate.sh && results/h200/decode/step20/run.sh OUT_DIR
set -uo pipefail
out=${1:?usage: run.sh OUT_DIR}
bin=./build/gemmtune
mkdir -p "$out"
timeout 120 $bin --shape 1x51865x768 --layout nn,tn --variants fewrows --strategy exhaustive --dtype f16 \
  --space results/h200/decode/step20/space.json --samples 5 --screen-warmup 0.05 --budget 60 --out "$out/table.json" > "$out/tune.log" 2>&1
python3 results/h200/decode/list-configs.py "$out/table.json.journal.jsonl" > "$out/configs.txt"
python3 results/h200/decode/list-configs.py --registers "$out/table.json.journal.jsonl" > "$out/registers.txt"
head -12 "$out/configs.txt"; cat "$out/registers.txt"
scripts/gpu-bench.sh --suite "" --int8-shapes "" --decode-suite "" --layout-shapes 1x51865x768 --budget 20 --out-dir "$out/layouts" > "$out/layouts.log" 2>&1
tail -28 "$out/layouts.log"
