#!/usr/bin/env bash
# Step 12, last call: the operation tests of both matrix-unit variants (every case of tests/gpu/test_operation.cpp:
# transposes, leading dimensions, offsets, batches, alpha, beta, bias, activations) on the H200, then the 16-bit
# suite with every variant after the screening fix, cuBLAS in the same call.
# source .gpu-kit/activate.sh && results/h200/coopmat2/run4.sh OUT_DIR
set -uo pipefail
out=${1:?usage: run4.sh OUT_DIR}
bin=./build/gemmtune
mkdir -p "$out"
./build/tests/gpu_tests --gtest_filter='AllVariants/Operation.*coopmat*' > "$out/operation.log" 2>&1
shapes=$(sed 's/#.*//' configs/shapes/h200-suite.txt | grep -oE '[0-9]+x[0-9]+x[0-9]+' | paste -sd, -)
python3 .gpu-kit/cublas_anchor.py --shapes "$shapes" --dtypes f16,bf16 > "$out/cublas.jsonl"
"$bin" --shape "$shapes" --dtype f16,bf16 --budget 30 --out "$out/suite.json" > "$out/suite.log" 2>&1
python3 scripts/ratio.py "$out/suite.json" "$out/cublas.jsonl" --json "$out/bench.json" --markdown "$out/bench.md"
