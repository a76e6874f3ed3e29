#!/usr/bin/env bash
# Needs the binary of step 13, whose `group` parameter was measured here and then removed (notes.md).
# Step 13 (results/h200/notes.md): banded tile order (`group`) for coopmat and coopmat2, in one call.
#  1. verification of group-8 configs where the last band is partial, two layouts, f16 and bf16, with beta and bias;
#  2. isolation: every 128x128 unsplit config of both variants at 4096^3 f16, full samples (group 1 against 8);
#  3. the 16-bit suite with every variant (coopmat2 included), cuBLAS in the same call.
# source .gpu-kit/activate.sh && results/h200/coopmat2/run3.sh OUT_DIR
set -uo pipefail
out=${1:?usage: run3.sh OUT_DIR}
bin=./build/gemmtune
mkdir -p "$out"
"$bin" --shape 1500x700x300,257x129x1031 --dtype f16,bf16 --layout nn,tt --beta 1 --bias --variants coopmat,coopmat2 \
  --kernels '*group8*' --budget 10 --out "$out/verify.json" > "$out/verify.log" 2>&1
"$bin" --shape 4096x4096x4096 --dtype f16 --variants coopmat,coopmat2 --kernels '*_bm128_bn128_*splits1*' \
  --strategy exhaustive --samples 5 --budget 150 --out "$out/order.json" > "$out/order.log" 2>&1
shapes=$(sed 's/#.*//' configs/shapes/h200-suite.txt | grep -oE '[0-9]+x[0-9]+x[0-9]+' | paste -sd, -)
python3 .gpu-kit/cublas_anchor.py --shapes "$shapes" --dtypes f16,bf16 > "$out/cublas.jsonl"
"$bin" --shape "$shapes" --dtype f16,bf16 --budget 30 --out "$out/suite.json" > "$out/suite.log" 2>&1
python3 scripts/ratio.py "$out/suite.json" "$out/cublas.jsonl" --json "$out/bench.json" --markdown "$out/bench.md"
