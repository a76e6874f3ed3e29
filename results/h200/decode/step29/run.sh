#!/usr/bin/env bash
# Issue 18 step 29, one H200 call: the runner's idle test and the RowMma GPU tests, then the budgeted bench of
# step29/decode-m3-16.txt beside cuBLAS and ggml-vulkan (scripts/gpu-bench.sh, budget 20 s a problem).
# Carry .gpu-kit, build/gemmtune and build/tests/gpu_tests:
#   source .gpu-kit/activate.sh && results/h200/decode/step29/run.sh OUT_DIR
set -uo pipefail
out=${1:?usage: run.sh OUT_DIR}
mkdir -p "$out"
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 150 ./build/tests/gpu_tests --gtest_filter='RowMma.*:GemmOperation.TheIdle*' > "$out/tests.log" 2>&1
echo "tests exit $?" | tee -a "$out/tests.log"
scripts/gpu-bench.sh --suite "" --int8-shapes "" --layout-shapes "" --decode-suite results/h200/decode/step29/decode-m3-16.txt \
  --budget 20 --out-dir "$out" > "$out/bench.log" 2>&1
echo "bench exit $?"
cat "$out/bench.md"
tar czf "$out/logs.tgz" -C "$out" tests.log bench.log tune.log
rm -f "$out/tests.log" "$out/bench.log"
