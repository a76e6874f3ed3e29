#!/usr/bin/env bash
# Step 17's parameter (notes, session of 2026-12-02, second), one call: warptile's tests on the H200 (every code path,
# both kk loops, four layouts), then the f32 suite (f32/run.sh, three families, budget 20) with `ahead` in the space.
# Carry .gpu-kit, build/gemmtune, build-test/tests/gpu_tests.   source .gpu-kit/activate.sh && call5.sh OUT
set -uo pipefail
out=${1:?usage: call5.sh OUT_DIR}
mkdir -p "$out"
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 120 build-test/tests/gpu_tests \
  --gtest_filter='GemmOperation.EveryWarptileCodePath*:AllVariants/Operation.*warptile*' > "$out/warptile-tests.txt" 2>&1
echo "warptile tests exit $?"; grep -E "^\[  (PASSED|FAILED) " "$out/warptile-tests.txt"
VARIANTS=tiled,splitk,warptile BUDGET=20 results/h200/f32/run.sh "$out/f32" | grep -v "^$" | tail -40
