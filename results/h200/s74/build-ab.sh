#!/usr/bin/env bash
# Builds issue 48 step 28's three binaries for s74/call1.sh in build/ (configured), from main's tree and the qrowdot
# files of branches issue48-step28-parts and issue48-step28 in turn: build/gemmtune-base (main, the measured kernel),
# build/gemmtune-parts (the halves, q4_0's codes in f16 pairs), build/gemmtune (the halves and q4_0's codes decoded in
# place). Leaves the step-28 files and the call script checked out from issue48-step28 (staged) for the call;
# `git checkout HEAD -- kernels/gemm_qrowdot.comp src/kernels/qrowdot.cpp tests/gpu/test_quantized.cpp` and
# `git rm --cached -q results/h200/s74/call1.sh` restore main's tree after it.
set -euo pipefail
files="kernels/gemm_qrowdot.comp src/kernels/qrowdot.cpp tests/gpu/test_quantized.cpp"
git diff --quiet HEAD -- $files || { echo "build-ab.sh: $files differ from HEAD; commit or restore them" >&2; exit 1; }
cmake --build build -j2 --target gemmtune >/dev/null && cp build/gemmtune build/gemmtune-base
git checkout issue48-step28-parts -- $files
cmake --build build -j2 --target gemmtune >/dev/null && cp build/gemmtune build/gemmtune-parts
git checkout issue48-step28 -- $files results/h200/s74/call1.sh
cmake --build build -j2 --target gemmtune >/dev/null
ls -l build/gemmtune build/gemmtune-base build/gemmtune-parts
