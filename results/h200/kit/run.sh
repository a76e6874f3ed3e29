#!/usr/bin/env bash
# Issue 24, one H200 call (2026-12-02, binary of b67f4c0): the kits of the two H200 tables, built here with
# tests/kit_example and run on the H200 over every entry and a few nearest-shape and default problems.
# Build (on the development machine):
#   build/gemmtune export results/h200/nvidia-h200.json --format kit --out build-kit/h200-kit --namespace h200
#   build/gemmtune export results/h200/decode/nvidia-h200.json --format kit --out build-kit/decode-kit \
#     --namespace h200_decode
#   cmake -S tests/kit_example -B build-kit/h200-build -DKIT_DIR=$PWD/build-kit/h200-kit -DKIT_NAMESPACE=h200
#   cmake -S tests/kit_example -B build-kit/decode-build -DKIT_DIR=$PWD/build-kit/decode-kit \
#     -DKIT_NAMESPACE=h200_decode
#   cmake --build build-kit/h200-build && cmake --build build-kit/decode-build
# Run (carry .gpu-kit and both kit_example binaries):  source .gpu-kit/activate.sh && results/h200/kit/run.sh OUT
set -uo pipefail
out=${1:?usage: run.sh OUT_DIR}
mkdir -p "$out"
build-kit/h200-build/kit_example 2000x2000x2000:f16:nn 1000x1000x3000:bf16:nn 100x768x3072:f32:nn \
  1x50000x768:f32:nn 4096x4096x4096:f16:nt > "$out/kit-h200.txt" 2>&1
echo "rc $?" >> "$out/kit-h200.txt"
build-kit/decode-build/kit_example 6x4096x14336:f16:nt 12x4096x14336:bf16:nt 3x51865x768:f32:nt \
  1x4000x14336:f16:nn > "$out/kit-decode.txt" 2>&1
echo "rc $?" >> "$out/kit-decode.txt"
tail -n 2 "$out"/kit-*.txt
