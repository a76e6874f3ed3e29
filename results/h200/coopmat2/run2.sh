#!/usr/bin/env bash
# Step 12, second call: coopmat2 with unclamped loads and stores for tiles inside C and alignment shown to the
# compiler. Verification as in run.sh, then a coopmat2-only f16 sweep of the four large suite shapes with
# cuBLAS in the same call. source .gpu-kit/activate.sh && results/h200/coopmat2/run2.sh OUT_DIR
set -uo pipefail
out=${1:?usage: run2.sh OUT_DIR}
bin=./build/gemmtune
mkdir -p "$out"
"$bin" --shape 17x33x65,257x129x1031,1000x1000x1000 --dtype f16,bf16 --layout nn,nt,tn,tt --beta 1 --bias \
  --activation gelu-erf --variants coopmat2 --budget 10 --out "$out/verify.json" > "$out/verify.log" 2>&1
"$bin" --shape 100x70x300,256x256x512 --dtype f16,bf16 --layout nn,tt --offset-a 3 --offset-b 5 --offset-c 1 \
  --lda 600 --ldb 605 --ldc 301 --beta 1 --variants coopmat2 --budget 6 --out "$out/verify.json" >> "$out/verify.log" 2>&1
shapes=4096x4096x4096,2048x2048x2048,1024x768x3072,1024x3072x768
python3 .gpu-kit/cublas_anchor.py --shapes "$shapes" --dtypes f16 > "$out/cublas.jsonl"
"$bin" --shape "$shapes" --dtype f16 --variants coopmat2 --budget 45 --out "$out/speed.json" > "$out/speed.log" 2>&1
python3 scripts/ratio.py "$out/speed.json" "$out/cublas.jsonl" --json "$out/bench.json" --markdown "$out/bench.md"
