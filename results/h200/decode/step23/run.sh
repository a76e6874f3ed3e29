#!/usr/bin/env bash
# Issue 18 step 23, one H200 call: every fewrows config of step23/space.json (tile widths from 24 to 64 column
# groups, splits 1 / 2) at 1x51865x768 f16 nn and tn and bf16 nn, then cuBLAS on the same shape for the ratio.
# The cols values 24, 40, 48 and 56 were in the binary of this step only (src/kernels/fewrows.cpp, not kept): today's
# binary refuses this space file; rebuild with them added to rerun.
# Carry .gpu-kit and build/gemmtune: source .gpu-kit/activate.sh && results/h200/decode/step23/run.sh OUT_DIR
set -uo pipefail
out=${1:?usage: run.sh OUT_DIR}
bin=./build/gemmtune
here=results/h200/decode
mkdir -p "$out"
for dt in f16 bf16; do
  layouts=nn,tn; [ $dt = bf16 ] && layouts=nn
  timeout 200 $bin --shape 1x51865x768 --layout $layouts --variants fewrows --strategy exhaustive --dtype $dt \
    --space $here/step23/space.json --samples 5 --screen-warmup 0.05 --budget 150 --out "$out/table-$dt.json" > "$out/tune-$dt.log" 2>&1
  python3 $here/list-configs.py "$out/table-$dt.json.journal.jsonl" > "$out/configs-$dt.txt"
  head -14 "$out/configs-$dt.txt"
done
python3 .gpu-kit/cublas_anchor.py --shapes 1x51865x768 --dtypes f16,bf16 --layouts nn,tn > "$out/cublas.jsonl" 2> "$out/cublas.err"
cat "$out/cublas.jsonl"
