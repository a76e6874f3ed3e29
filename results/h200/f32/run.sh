#!/usr/bin/env bash
# Issue 22, one H200 call: the f32 suite (the shapes; 2048^3 in four layouts, 512x4096x14336 nt) tuned with
# the tiled and split-k families beside cuBLAS in the same call (nt rows against cuBLAS nt), then every timed
# config's time, register count and local memory (OUT/configs.txt, from the journal's pipeline statistics).
# GEMMTUNE: the binary (default ./build/gemmtune); VARIANTS (default tiled,splitk); BUDGET per shape (default 40).
# Carry .gpu-kit and build/gemmtune:  source .gpu-kit/activate.sh && results/h200/f32/run.sh OUT_DIR
set -uo pipefail
out=${1:?usage: run.sh OUT_DIR}
bin=${GEMMTUNE:-./build/gemmtune} variants=${VARIANTS:-tiled,splitk} budget=${BUDGET:-40}
mkdir -p "$out/work"
t=$out/work/table.json
timeout 120 python3 .gpu-kit/cublas_anchor.py --dtypes f32 --layouts nn,nt,tn,tt \
  --shapes 4096x4096x4096,2048x2048x2048,1024x768x3072,1024x3072x768,128x768x768,128x768x3072,512x4096x14336 \
  > "$out/work/cublas.jsonl"
"$bin" peak --out "$t" > "$out/work/tune.log" 2>&1
tune() { timeout 200 "$bin" --dtype f32 --variants "$variants" --out "$t" "$@" >> "$out/work/tune.log" 2>&1; echo "tune $* exit $?"; }
tune --shape 4096x4096x4096 --budget "$budget"
tune --shape 2048x2048x2048 --layout nn,nt,tn,tt --budget $((budget * 2))
tune --shape 1024x768x3072,1024x3072x768,128x768x768,128x768x3072 --budget "$budget"
tune --shape 512x4096x14336 --layout nt --budget "$budget"
# The fused epilogue's largest form on the same tiles (its own table: local memory must stay 0 there too).
timeout 100 "$bin" --dtype f32 --variants tiled --shape 2048x2048x2048 --beta 0.5 --bias --activation gelu-erf --budget 20 \
  --out "$out/work/epilogue.json" >> "$out/work/tune.log" 2>&1
python3 scripts/ratio.py "$t" "$out/work/cublas.jsonl" --markdown "$out/bench.md"
cat "$out/bench.md"
python3 results/h200/f32/configs.py "$t.journal.jsonl" "$out/work/epilogue.json.journal.jsonl" > "$out/configs.txt"
for s in "2048x2048x2048 nn epi" "4096x4096x4096 nn" "2048x2048x2048 nn" "2048x2048x2048 nt" "1024x768x3072 nn" "128x768x768 nn" "512x4096x14336 nt"; do
  grep "^$s " "$out/configs.txt" | head -4
done
tar czf "$out/logs.tgz" -C "$out" work && rm -rf "$out/work"
