#!/usr/bin/env bash
# Issue 18 steps 25 and 26, one H200 call each: the order-model GPU tests (issue 19), then the budgeted bench of
# some of the decode suite's lines beside cuBLAS and ggml-vulkan (scripts/gpu-bench.sh, budget 20 s a problem):
# step 25 the Llama lines at M = 3..8 (the default SUITE), step 26 step26/decode-m4-16.txt.
# Carry .gpu-kit, build/gemmtune and build/tests/gpu_tests:
#   source .gpu-kit/activate.sh && results/h200/decode/step25/run.sh OUT_DIR [SUITE]
set -uo pipefail
out=${1:?usage: run.sh OUT_DIR [SUITE]}
suite=${2:-results/h200/decode/step25/decode-m3-8.txt}
mkdir -p "$out"
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 120 ./build/tests/gpu_tests --gtest_filter='OrderModel.*' > "$out/order-tests.log" 2>&1
echo "order tests exit $?" | tee -a "$out/order-tests.log"
scripts/gpu-bench.sh --suite "" --int8-shapes "" --layout-shapes "" --decode-suite "$suite" \
  --budget 20 --out-dir "$out" > "$out/bench.log" 2>&1
echo "bench exit $?"
cat "$out/bench.md"
tar czf "$out/logs.tgz" -C "$out" order-tests.log bench.log tune.log
rm -f "$out/order-tests.log" "$out/bench.log"
