#!/usr/bin/env bash
# Session 2026-12-06 (12), call 4: the reverted coopmat kernel with the new partial-steps device test, and the aligning
# copy's cost by size (each pass alone, tiny to large). Carry: [".gpu-kit", "build/gemmtune", "build/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s71c4
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 150 build/tests/gpu_tests \
  --gtest_filter='CooperativeMatrix.Partial*:CooperativeMatrix.Tiles*' > $d/tests.log 2>&1
echo "gpu_tests rc $?" | tee -a $d/gpu.txt
grep -E '^\[  (PASSED|FAILED|SKIPPED) |Failure' $d/tests.log | head -12 | tee $d/tests.txt
for shape in 77x123x55 250x400x200 777x1234x555 1555x2468x1110 3111x4936x2220; do
  build/gemmtune bench --config coopmat_f16_bm64_bn128_bk64_sgm4_sgn4_splits1_prepass1 --shape $shape --dtype f16 \
    --json 2>>$d/bench.log | python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$shape', round(b['median_us'],2), 'us', b['disposition'], b.get('passes_us',''))" | tee -a $d/ab.txt
done
cp $d/ab.txt $d/tests.txt $d/gpu.txt $OUT/
