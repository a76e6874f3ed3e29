#!/usr/bin/env bash
# Session of 2026-12-05 (6), call 1: the session before's s60/call2.sh (issue 43 step 10: rowmma K x N register
# fragments, GPU tests and decoding rows beside cuBLAS), then s60/call1.sh's first half (issue 43 step 9: the
# preparation's parts of the two 4096-class llama rows at --budget 8).
# Carry: [".gpu-kit", "build/gemmtune", "build/tests/gpu_tests"].
set -uo pipefail
bash results/h200/s60/call2.sh
source .gpu-kit/activate.sh
nproc > $OUT/prep.txt
build/gemmtune --shape 2048x14336x4096,512x14336x4096 --layout nt --dtype f16 --budget 8 -v --out /tmp/big.json 2>&1 |
  grep -E "preparation|time:|evaluated|reference ready|baseline" >> $OUT/prep.txt
