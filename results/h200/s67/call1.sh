#!/usr/bin/env bash
# Session 2026-12-05 (9), call 1. Issue 43 step 16 (coopmat's unaligned whole groups from 32-bit words): the coopmat
# operation and quantized tests on the device (their first run with the change), then 777x1234x555 nn f16 and bf16
# with the last winner and beside its aligned neighbour 768x1280x576 (bench, then a tune at --budget 16, 8 s a dtype), cuBLAS
# on both. Issue 48: step 18 (qrowmma) verified (gpu_tests' quantized cases) and timed by hand, then the decoding
# tune with f16 activations beside f32 (s66/call3.sh's count), M = 1, 2, 4, 8, and ggml-vulkan's quantized cases.
# Carry: [".gpu-kit", "build/gemmtune", "build/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s67c1
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
export GEMMTUNE_BIN=$PWD/build/gemmtune
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 200 build/tests/gpu_tests \
  --gtest_filter='AllVariants/Operation.*coopmat_*:QuantizedGemm.*:EveryTypeAndLayout/Quantized.*' > $d/tests.log 2>&1
echo "gpu_tests rc $?" | tee -a $d/gpu.txt
grep -E '^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED' $d/tests.log | tee $d/tests.txt
for dt in f16 bf16; do
  for s in 777x1234x555 768x1280x576; do
    build/gemmtune bench --config coopmat_${dt}_bm64_bn64_bk64_sgm2_sgn4_splits1 --shape $s --layout nn --dtype $dt \
      --json 2>>$d/bench.log | python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('bench', '$dt', '$s', b['name'], round(b['median_us'],2), 'us', b['disposition'])" | tee -a $d/summary.txt
  done
done
# Issue 48 step 18: qrowmma configs by hand at M = 1 and 8 beside the last tune's qrowdot winners (hot).
for m in 1 8; do
  for c in "qrowmma_f32q4_sgk4_frags1_unroll2 f32:q4_0" "qrowmma_f32q4_sgk4_frags2_unroll2 f32:q4_0" \
           "qrowmma_f32q4_sgk8_frags1_unroll4 f32:q4_0" "qrowmma_f32q4_sgk4_frags1_unroll2_regs0 f32:q4_0" \
           "qrowmma_f32q8_sgk4_frags1_unroll2 f32:q8_0" "qrowmma_f16q4_sgk4_frags1_unroll2 f16:q4_0" \
           "qrowdot_f32q4_wg256_rows8_lanes4_splits1 f32:q4_0" "qrowdot_f32q8_wg256_rows2_lanes4_splits1 f32:q8_0"; do
    set -- $c
    build/gemmtune bench --config $1 --shape ${m}x4096x14336 --layout nt --dtype $2 --json 2>>$d/bench.log |
      python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('bench', 'M=$m', '$2', b['name'], round(b['median_us'],2), 'us', b['disposition'])" | tee -a $d/summary.txt
  done
done
build/gemmtune tune --shape 777x1234x555,768x1280x576 --layout nn --dtype f16,bf16 --budget 16 --out $d/edge.json \
  --json > $d/edge.out 2> $d/edge.log
build/gemmtune tune --shape 1x4096x14336,2x4096x14336,4x4096x14336,8x4096x14336 --layout nt \
  --dtype f16:q4_0,f32:q4_0,f16:q8_0,f32:q8_0 --budget 16 --out $d/decode.json --json > $d/decode.out 2> $d/decode.log
for f in edge decode; do
  python3 -c "
import json,sys
for p in json.load(open(sys.argv[1]))['problems']:
    b=p.get('best') or {}
    print('tune', p['problem'], 'evaluated', p['evaluated'], b.get('name'), b.get('median_us'), 'us')
" $d/$f.out | tee -a $d/summary.txt
done
timeout 120 .gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $d/ggml.jsonl 2> $d/ggml.log
grep -E '"M": (1|2|4|8),' $d/ggml.jsonl | tee -a $d/summary.txt
python3 .gpu-kit/cublas_anchor.py --shapes 777x1234x555,768x1280x576 --dtypes f16,bf16 --layouts nn \
  > $d/cublas.jsonl 2> $d/cublas.log
cat $d/cublas.jsonl | tee -a $d/summary.txt
cp $d/summary.txt $d/tests.txt $d/gpu.txt $OUT/
tar czf $OUT/call.tgz -C $d .
