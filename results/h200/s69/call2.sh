#!/usr/bin/env bash
# Session 2026-12-06 (10), call 2: issue 48 step 22 (qrowmma multiplies the codes and scales each block's sums in
# f32). The quantized device tests, then qrowmma's call-1 configs at M = 1 and 8 (A/B against call 1's figures on the
# same card kind), then the decoding tune (f32 activations, M = 1, 2, 4, 8, N 4096, K 14336, nt, `--budget 16` a
# shape for both types, hot) beside ggml-vulkan's own q8_0 / q4_0 cases. Carry: [".gpu-kit", "build/gemmtune",
# "build/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s69c2
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 150 build/tests/gpu_tests \
  --gtest_filter='EveryTypeAndLayout/Quantized.*:QuantizedGemm.*' > $d/tests.log 2>&1
echo "gpu_tests rc $?" | tee -a $d/gpu.txt
grep -E '^\[  (PASSED|FAILED) |error [0-9.e-]+ > bound' $d/tests.log | head -20 | tee $d/tests.txt
for m in 1 8; do
  for c in "qrowmma_f32q4_sgk16_frags2_unroll1 f32:q4_0" "qrowmma_f32q4_sgk8_frags2_unroll1_splits2 f32:q4_0" \
           "qrowmma_f32q8_sgk16_frags2_unroll1 f32:q8_0"; do
    set -- $c
    build/gemmtune bench --config $1 --shape ${m}x4096x14336 --layout nt --dtype $2 --json 2>>$d/bench.log |
      python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('M=$m', '$1', round(b['median_us'],2), 'us', b['disposition'])" | tee -a $d/ab.txt
  done
done
dec=1x4096x14336,2x4096x14336,4x4096x14336,8x4096x14336
build/gemmtune tune --shape $dec --layout nt --dtype f32:q4_0,f32:q8_0 --budget 16 --out $d/hot.json --json \
  > $d/hot.out 2> $d/hot.log
python3 -c "
import json,sys
for p in json.load(open(sys.argv[1]))['problems']:
    b=p.get('best') or {}
    print('hot', p['problem'], 'evaluated', p['evaluated'], b.get('name'), b.get('median_us'), 'us')
" $d/hot.out | tee -a $d/summary.txt
timeout 150 .gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $d/ggml.jsonl 2> $d/ggml.log
grep -E '"M": (1|2|4|8),' $d/ggml.jsonl | tee -a $d/summary.txt
cp $d/summary.txt $d/ab.txt $d/tests.txt $d/gpu.txt $OUT/
tar czf $OUT/call.tgz -C $d .
