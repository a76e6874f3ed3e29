#!/usr/bin/env bash
# Session of 2026-12-02, call 5 (notes: step 13): the 128x768 shapes tuned as the suite does, beside cuBLAS.
#   source .gpu-kit/activate.sh && results/h200/s37/call5.sh $OUT
set -uo pipefail
out=${1:?usage: call5.sh OUT_DIR}
mkdir -p "$out/work"
timeout 90 python3 .gpu-kit/cublas_anchor.py --dtypes f32 --layouts nn --shapes 128x768x768,128x768x3072 > "$out/work/cublas.jsonl"
timeout 100 build/gemmtune --shape 128x768x768,128x768x3072 --dtype f32 --variants tiled,splitk,warptile --budget 20 \
  --out "$out/work/t.json" > "$out/work/tune.log" 2>&1
echo "tune exit $?"
python3 scripts/ratio.py "$out/work/t.json" "$out/work/cublas.jsonl" --markdown "$out/bench.md" | tail -2
tar czf "$out/work.tgz" -C "$out" work && rm -rf "$out/work"
