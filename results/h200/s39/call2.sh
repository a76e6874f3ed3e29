#!/usr/bin/env bash
# Step 19 (notes, session of 2026-12-02, third), one call: warptile lanes of 8 x 16 and 16 x 8 outputs in 128 x 128,
# 256 x 128, 128 x 256 (and 256 x 256) tiles beside the 8 x 8 control, exhaustive (`f32/compare.sh`), cuBLAS f32 in the
# same call.   Carry .gpu-kit, build/gemmtune.   source .gpu-kit/activate.sh && results/h200/s39/call2.sh $OUT
set -uo pipefail
out=${1:?usage: call2.sh OUT_DIR}
export VARIANT=warptile BINS="new=build/gemmtune"
SHAPES="2048x2048x2048:nn 2048x2048x2048:nt 4096x4096x4096:nn" SPACE='{"bm": [128, 256], "bn": [128, 256], "bk": [8],
  "wm": [64], "wn": [32, 64], "tm": [8, 16], "tn": [8, 16], "splits": [1], "reduce": [0], "ahead": [0, 1]}' \
  results/h200/f32/compare.sh "$out/big"
SHAPES="512x4096x14336:nt" SPACE='{"bm": [128, 256], "bn": [128, 256], "bk": [8], "wm": [64], "wn": [32, 64],
  "tm": [8, 16], "tn": [8, 16], "splits": [1, 2], "reduce": [0, 1], "ahead": [0, 1]}' results/h200/f32/compare.sh "$out/linear"
tar czf "$out/all.tgz" -C "$out" big linear && cp "$out/big/new.txt" "$out/big-new.txt" \
  && cp "$out/linear/new.txt" "$out/linear-new.txt" && rm -rf "$out/big" "$out/linear"
