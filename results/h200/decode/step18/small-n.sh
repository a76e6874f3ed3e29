#!/usr/bin/env bash
# Issue 18 step 18, second H200 call: N too small to fill the device (768 outputs from 14336, the split-k case of
# the issue). Every fewrows config of step18/space-small-n.json (its first run: space.json) at 1x768x14336 f16 nn and every rowmma / rowdot config at
# 8x768x14336 f16 nt, each SPLITS 1-32 (fewrows) or 1-8 (rowmma), beside cuBLAS; then the default screened tuning
# of both (1x768x14336 in f32, f16 and bf16, --budget 60; 8x768x14336 f16, --budget 20).
# Carry .gpu-kit and build/gemmtune: source .gpu-kit/activate.sh && results/h200/decode/step18/small-n.sh OUT_DIR
set -uo pipefail
out=${1:?usage: small-n.sh OUT_DIR}
here=results/h200/decode/step18
bin=./build/gemmtune
mkdir -p "$out"
timeout 60 python3 .gpu-kit/cublas_anchor.py --shapes 1x768x14336 --dtypes f32,f16,bf16 --layouts nn,nt > "$out/cublas.jsonl"
timeout 60 python3 .gpu-kit/cublas_anchor.py --shapes 8x768x14336 --dtypes f16 --layouts nt >> "$out/cublas.jsonl"
$bin peak --out "$out/table.json" > "$out/tune.log" 2>&1
timeout 120 $bin --shape 1x768x14336 --layout nn --variants fewrows --strategy exhaustive --dtype f16 --space $here/space-small-n.json \
  --samples 5 --screen-warmup 0.05 --budget 80 --out "$out/table.json" >> "$out/tune.log" 2>&1
timeout 120 $bin --shape 8x768x14336 --layout nt --variants rowmma,rowdot --strategy exhaustive --dtype f16 --space $here/space-small-n.json \
  --samples 5 --screen-warmup 0.05 --budget 80 --out "$out/table.json" >> "$out/tune.log" 2>&1
python3 results/h200/decode/list-configs.py "$out/table.json.journal.jsonl" > "$out/configs.txt"
for s in "1x768x14336 nn" "8x768x14336 nt"; do
  for sp in 1 2 4 8 16 32; do grep "^$s " "$out/configs.txt" | grep "splits$sp " | head -2; done
  grep "^$s " "$out/configs.txt" | grep rowdot | head -2
done
timeout 150 $bin --shape 1x768x14336 --layout nn,nt --dtype f32,f16,bf16 --budget 60 --out "$out/screened.json" > "$out/screened.log" 2>&1
timeout 60 $bin --shape 8x768x14336 --layout nt --dtype f16 --budget 20 --out "$out/screened.json" >> "$out/screened.log" 2>&1
python3 scripts/ratio.py "$out/screened.json" "$out/cublas.jsonl" --json "$out/bench.json" --markdown "$out/bench.md"
cat "$out/bench.md"
