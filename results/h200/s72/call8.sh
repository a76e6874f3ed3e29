#!/usr/bin/env bash
# Session 2026-12-06 (13), call 8: the A_KXM_ROWS device test (call 7's run of the RowMma tests ran out of time after
# the edge test passed). Carry: [".gpu-kit", "build/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s72c8
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 240 build/tests/gpu_tests \
  --gtest_filter='RowMma.OpA*:RowMma.FragmentLayoutProbe' > $d/tests.log 2>&1
echo "gpu_tests rc $?" | tee -a $d/gpu.txt
grep -E '^\[  (PASSED|FAILED|SKIPPED) |Failure|^\[       OK' $d/tests.log | head -20 | tee $d/tests.txt
grep -B2 -A6 Failure $d/tests.log | head -60 > $d/failures.txt
cp $d/tests.txt $d/failures.txt $d/gpu.txt $OUT/
