#!/usr/bin/env bash
# Session of 2026-12-07 (26), call 2: issue 48 step 42 (arriving ranges: one main pass over K while the decoding of
# the ranges after the first 1 or 2 runs beside it, each tile reading a range from the plane once its count is
# complete, else decoding it from the blocks) at 512x4096x14336 nt, hot, two rounds, beside dense f16 and chunks 1;
# 1024x11008x4096 (outside the suite); the coopmat kit test of both orders (plane and blocks, bit for bit). Binaries:
# build/gemmtune-arrive and build/gpu_tests-arrive (the tree of step 42). Carry [".gpu-kit", "build/gemmtune-arrive",
# "build/gpu_tests-arrive"]. About 100 s on an H100 (trimmed to the session's last device time).
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
bin=build/gemmtune-arrive
bench() {  # shape config
  $bin bench --config $2 --shape $1 --layout nt --json 2>>/tmp/bench.log | python3 -c "
import json,sys
r=json.load(sys.stdin)['results'][0]
print('$1', r['config'], r['disposition'], round(r.get('median_us') or 0, 1), r.get('passes_us', ''), r.get('detail','')[:160])
" | tee -a $OUT/arrive.txt
}
t=bm128_bn128_bk64_sgm2_sgn4_splits1
for round in 1 2; do
  echo "round $round" | tee -a $OUT/arrive.txt
  bench 512x4096x14336 coopmat_f16_$t
  for a in "" _arrive1 _arrive2; do bench 512x4096x14336 coopmat_f16q4_${t}_prepass1$a; done
  for a in "" _arrive1; do bench 512x4096x14336 coopmat_f16q8_${t}_prepass1$a; done
done
echo "outside the suite" | tee -a $OUT/arrive.txt
bench 1024x11008x4096 coopmat_f16_$t
for a in "" _arrive1; do bench 1024x11008x4096 coopmat_f16q4_${t}_prepass1$a; done
echo "odd shapes, the epilogue, beta, a batch" | tee -a $OUT/arrive.txt
for a in _arrive1 _arrive2; do
  $bin bench --config coopmat_f16q4_bm64_bn64_bk64_sgm2_sgn2_splits1_prepass1$a --shape 77x300x6176x2 \
    --layout nt,tt --alpha 0.5 --beta -1 --bias --activation gelu-tanh --json 2>>/tmp/bench.log | python3 -c "
import json,sys
for r in json.load(sys.stdin)['results']:
  print(r['config'], r.get('layout', ''), r['disposition'], r.get('error'), r.get('detail','')[:160])
" | tee -a $OUT/arrive.txt
done
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 120 build/gpu_tests-arrive \
  --gtest_filter='KitPlan.*Arriving*:QuantizedGemm.Chunk*' > /tmp/tests.log 2>&1
echo "gpu_tests rc $?" | tee $OUT/tests.txt
grep -E '^\[ +(OK|PASSED|FAILED|SKIPPED) |Failure' /tmp/tests.log | head -20 | tee -a $OUT/tests.txt
