#!/usr/bin/env bash
# Step 17 (notes, session of 2026-12-02, second), one call: warptile's 128 x 128 and 64 x 64 tiles timed exhaustively
# by the unchanged binary (base) and this step's (new) with `f32/compare.sh`, cuBLAS f32 in the same call.
# Carry .gpu-kit, build/gemmtune, build-base/gemmtune.   source .gpu-kit/activate.sh && results/h200/s38/call4.sh $OUT
set -uo pipefail
out=${1:?usage: call4.sh OUT_DIR}
export VARIANT=warptile BINS="base=build-base/gemmtune new=build/gemmtune"
SPACE='{"bm": [128], "bn": [128], "bk": [8, 16], "wm": [32, 64], "wn": [32, 64], "tm": [8], "tn": [8], "splits": [1],
  "reduce": [0]}' results/h200/f32/compare.sh "$out/big"
SHAPES="128x768x3072:nn 1024x768x3072:nn 128x768x768:nn" SPACE='{"bm": [32, 64], "bn": [64], "bk": [8], "wm": [16, 32],
  "wn": [32, 64], "tm": [8], "tn": [4], "splits": [2, 8, 16], "reduce": [1]}' results/h200/f32/compare.sh "$out/small"
tar czf "$out/all.tgz" -C "$out" big small && cp "$out/big/base.txt" "$out/big-base.txt" && cp "$out/big/new.txt" "$out/big-new.txt" \
  && cp "$out/small/base.txt" "$out/small-base.txt" && cp "$out/small/new.txt" "$out/small-new.txt" && rm -rf "$out/big" "$out/small"
