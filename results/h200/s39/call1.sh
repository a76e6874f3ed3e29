#!/usr/bin/env bash
# Step 18 (notes, session of 2026-12-02, third), one call: warptile with 0, 1, 2 and 4 stager warps, exhaustive
# lists (`f32/compare.sh`, one binary: stagers0 is the kernel as it was), cuBLAS f32 in the same call.
# Carry .gpu-kit, build/gemmtune.   source .gpu-kit/activate.sh && results/h200/s39/call1.sh $OUT
set -uo pipefail
out=${1:?usage: call1.sh OUT_DIR}
export VARIANT=warptile BINS="new=build/gemmtune"
SPACE='{"bm": [128], "bn": [128], "bk": [8, 16], "wm": [32, 64], "wn": [32, 64], "tm": [8], "tn": [8], "splits": [1],
  "reduce": [0], "ahead": [0, 1], "stagers": [0, 2, 4]}' results/h200/f32/compare.sh "$out/big"
SHAPES="128x768x3072:nn 1024x768x3072:nn 128x768x768:nn" SPACE='{"bm": [32, 64], "bn": [64], "bk": [8], "wm": [16, 32],
  "wn": [32, 64], "tm": [8], "tn": [4], "splits": [2, 8, 16], "reduce": [1], "ahead": [1], "stagers": [0, 1, 2, 4]}' \
  results/h200/f32/compare.sh "$out/small"
tar czf "$out/all.tgz" -C "$out" big small && cp "$out/big/new.txt" "$out/big-new.txt" \
  && cp "$out/small/new.txt" "$out/small-new.txt" && rm -rf "$out/big" "$out/small"
