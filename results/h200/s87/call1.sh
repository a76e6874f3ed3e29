#!/usr/bin/env bash
# Session 2026-12-07 (23), call 1. Issue 48 step 40 (results/h200/notes.md): the quantized device tests (the
# `overlap1` configs verify, their flags read back zero), then at 512x4096x14336 nt the pre-pass configs with and
# without `overlap1` beside the dense f16 tiles, ROUNDS rounds (default 2) hot, each pass's time where there are two;
# then a `--budget 20` tune of f16, f16:q4_0 and f16:q8_0 there. Binary build/gemmtune and build-test/tests/gpu_tests
# of 0bea7fe. Carry: [".gpu-kit", "build/gemmtune", "build-test/tests/gpu_tests"]. About 4 minutes.
set -uo pipefail
start=$(date +%s)
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 200 build-test/tests/gpu_tests --gtest_filter='*Quantized*' > /tmp/tests.log 2>&1
echo "gpu_tests rc $? at $(( $(date +%s) - start ))s" | tee -a $OUT/gpu.txt
grep -E "FAILED|PASSED|tests ran|Failure|Expected|Which is" /tmp/tests.log | head -40 | tee -a $OUT/gpu.txt
shape=512x4096x14336
configs="coopmat_f16_bm128_bn128_bk64_sgm2_sgn4_splits1 coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits1"
for t in f16q4 f16q8 f32q4; do
  for sg in sgm2_sgn4 sgm2_sgn2; do
    configs="$configs coopmat_${t}_bm128_bn128_bk64_${sg}_splits1_prepass1 coopmat_${t}_bm128_bn128_bk64_${sg}_splits1_prepass1_overlap1"
  done
done
for round in $(seq ${ROUNDS:-2}); do
  for c in $configs; do
    build/gemmtune bench --config $c --shape $shape --layout nt --json 2>>/tmp/bench.log | python3 -c "
import json,sys
r=json.load(sys.stdin)['results'][0]
print('r$round', r['config'], r['disposition'], round(r.get('median_us') or 0, 1), r.get('passes_us', ''), r.get('detail','')[:160])
" | tee -a $OUT/ab.txt
  done
done
echo "A/B done at $(( $(date +%s) - start ))s" | tee -a $OUT/ab.txt
timeout -s INT 120 build/gemmtune tune --shape $shape --layout nt --dtype f16,f16:q4_0,f16:q8_0 --budget 20 \
  --out /tmp/m512.json > /tmp/tune.log 2>&1
grep -E "on NVIDIA|  best:|screening:" /tmp/tune.log | tee $OUT/tune.txt
echo "tune done at $(( $(date +%s) - start ))s" | tee -a $OUT/ab.txt
tar czf $OUT/logs.tgz -C /tmp tests.log bench.log tune.log m512.json m512.json.journal.jsonl 2>/dev/null
