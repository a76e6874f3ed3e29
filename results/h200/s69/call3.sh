#!/usr/bin/env bash
# Session 2026-12-06 (10), call 3: step 22 with the row's scale chosen by a select (call 2 ran every qrowmma config at
# the staged configs' speed: a register array indexed at run time). qrowmma's device tests; qrowmma at M = 1 and
# 8 with fragments in registers and staged (regs0: how far apart they are says whether the register path runs), hot,
# N 4096, K 14336, nt (the session's device time nearly spent: no tune).
# Carry: [".gpu-kit", "build/gemmtune", "build/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s69c3
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 150 build/tests/gpu_tests \
  --gtest_filter='EveryTypeAndLayout/Quantized.DecodingRowsVerifyOnTheMatrix*' > $d/tests.log 2>&1
echo "gpu_tests rc $?" | tee -a $d/gpu.txt
grep -E '^\[  (PASSED|FAILED) |error [0-9.e-]+ > bound' $d/tests.log | head -20 | tee $d/tests.txt
for m in 1 8; do
  for c in "qrowmma_f32q4_sgk16_frags2_unroll1 f32:q4_0" "qrowmma_f32q4_sgk16_frags2_unroll1_regs0 f32:q4_0" \
           "qrowmma_f32q4_sgk16_frags1_unroll2 f32:q4_0" "qrowmma_f32q8_sgk16_frags2_unroll1 f32:q8_0"; do
    set -- $c
    build/gemmtune bench --config $1 --shape ${m}x4096x14336 --layout nt --dtype $2 --json 2>>$d/bench.log |
      python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('M=$m', '$1', round(b['median_us'],2), 'us', b['disposition'])" | tee -a $d/ab.txt
  done
done
cp $d/ab.txt $d/tests.txt $d/gpu.txt $OUT/
tar czf $OUT/call.tgz -C $d .
