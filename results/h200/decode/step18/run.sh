#!/usr/bin/env bash
# Issue 18 step 18, one H200 call: every fewrows config of step18/space.json (VEC 8, SPLITS 1-8) at 1x51865x768 f16
# nn and tn beside cuBLAS; rowmma's every config (SPLITS 1-8) at 8x1024x4096 f16 nt, where N / 16 = 64 blocks leave
# the device underfilled; then the budgeted layouts run of scripts/gpu-bench.sh.
# Carry .gpu-kit and build/gemmtune: source .gpu-kit/activate.sh && results/h200/decode/step18/run.sh OUT_DIR
set -uo pipefail
out=${1:?usage: run.sh OUT_DIR}
here=results/h200/decode/step18
bin=./build/gemmtune
mkdir -p "$out"
timeout 60 python3 .gpu-kit/cublas_anchor.py --shapes 1x51865x768 --dtypes f16 --layouts nn,tn > "$out/cublas.jsonl"
timeout 60 python3 .gpu-kit/cublas_anchor.py --shapes 8x1024x4096 --dtypes f16 --layouts nt >> "$out/cublas.jsonl"
$bin peak --out "$out/table.json" > "$out/tune.log" 2>&1
timeout 300 $bin --shape 1x51865x768 --layout nn,tn --variants fewrows --strategy exhaustive --dtype f16 --space $here/space.json \
  --samples 5 --screen-warmup 0.05 --budget 200 --out "$out/table.json" >> "$out/tune.log" 2>&1
timeout 100 $bin --shape 8x1024x4096 --layout nt --variants rowmma,rowdot --strategy exhaustive --dtype f16 --space $here/space.json \
  --samples 5 --screen-warmup 0.05 --budget 60 --out "$out/table.json" >> "$out/tune.log" 2>&1
python3 scripts/ratio.py "$out/table.json" "$out/cublas.jsonl" --json "$out/bench.json" --markdown "$out/bench.md"
python3 results/h200/decode/list-configs.py "$out/table.json.journal.jsonl" > "$out/configs.txt"
cat "$out/bench.md"
for s in "1x51865x768 nn" "1x51865x768 tn" "8x1024x4096 nt"; do grep "^$s " "$out/configs.txt" | head -6; done
scripts/gpu-bench.sh --suite "" --int8-shapes "" --decode-suite "" --layout-shapes 1x51865x768 --budget 20 --out-dir "$out/layouts" > "$out/layouts.log" 2>&1
tail -30 "$out/layouts.log"
