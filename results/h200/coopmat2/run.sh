#!/usr/bin/env bash
# Step 12 (results/h200/notes.md): the coopmat2 variant on the H200, in one call. Run from the checkout on the GPU
# machine with .gpu-kit/ and build/gemmtune: source .gpu-kit/activate.sh && results/h200/coopmat2/run.sh OUT_DIR
#  1. what the device lists for VK_NV_cooperative_matrix2;
#  2. verification of every coopmat2 config the budget reaches at odd shapes, all four layouts, f16 and bf16, with
#     beta, bias and gelu-erf, then unaligned offsets and leading dimensions;
#  3. speed: the 16-bit suite with coopmat and coopmat2 swept together, cuBLAS in the same call.
set -uo pipefail
out=${1:?usage: run.sh OUT_DIR}
bin=./build/gemmtune
mkdir -p "$out"
"$bin" devices > "$out/devices.txt" 2>&1
"$bin" --shape 17x33x65,257x129x1031,1000x1000x1000 --dtype f16,bf16 --layout nn,nt,tn,tt --beta 1 --bias \
  --activation gelu-erf --variants coopmat2 --budget 12 --out "$out/verify.json" > "$out/verify.log" 2>&1
"$bin" --shape 100x70x300 --dtype f16,bf16 --layout nn,tt --offset-a 3 --offset-b 5 --offset-c 1 --lda 303 --ldb 305 \
  --ldc 71 --beta 1 --variants coopmat2 --budget 6 --out "$out/verify.json" >> "$out/verify.log" 2>&1
suite=configs/shapes/h200-suite.txt
shapes=$(sed 's/#.*//' "$suite" | grep -oE '[0-9]+x[0-9]+x[0-9]+' | paste -sd, -)
python3 .gpu-kit/cublas_anchor.py --shapes "$shapes" --dtypes f16,bf16 > "$out/cublas.jsonl"
"$bin" --shape "$shapes" --dtype f16,bf16 --variants coopmat,coopmat2 --budget 30 --out "$out/speed.json" > "$out/speed.log" 2>&1
python3 scripts/ratio.py "$out/speed.json" "$out/cublas.jsonl" --json "$out/bench.json" --markdown "$out/bench.md"
