#!/usr/bin/env bash
# Step 12, fifth call: the operation tests of both matrix-unit variants on the H200 (no validation layer there),
# and whether the coopmat2 screening figure at 4096^3 depends on the compile before it: the same single config
# screened with a cold pipeline cache (a compile of a second or more, the device idle) and then a warm one.
# source .gpu-kit/activate.sh && results/h200/coopmat2/run5.sh OUT_DIR
set -uo pipefail
out=${1:?usage: run5.sh OUT_DIR}
bin=./build/gemmtune
mkdir -p "$out"
export GEMMTUNE_CACHE_DIR=$out/cache
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 ./build/tests/gpu_tests --gtest_filter='AllVariants/Operation.*coopmat*' > "$out/operation.log" 2>&1
for run in cold warm; do
  "$bin" --shape 4096x4096x4096 --dtype f16 --variants coopmat2 --kernels '*wg128_bm128_bn128_bk64_splits1' --budget 5 \
    --out "$out/screen-$run.json" > "$out/screen-$run.log" 2>&1
done
rm -rf "$out/cache"
