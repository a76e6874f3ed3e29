#!/usr/bin/env bash
# Session of 2026-12-05 (4), call 4 (issue 48 step 13): 512-row coopmat tiles for weights in blocks, which decode each
# block once while staging at M = 512. The 512 x 64 tiles one by one beside the tuned pre-pass config and the dense f16
# kernel, then the M = 512 tune with f16 beside it, and ggml-vulkan's M = 512 cases in the same call.
# Carry: [".gpu-kit", "build/gemmtune", "build/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
source results/h200/s59/common.sh
d=/tmp/s59c4
mkdir -p $d
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee $d/gpu.txt
bench() {  # bench CONFIG DTYPE
  build/gemmtune bench --config "$1" --shape 512x4096x14336 --layout nt --dtype "$2" --json 2>>$d/bench.log | python3 -c "
import json,sys
try:
    b=json.load(sys.stdin)['results'][0]; print('$2', '$1', round(b['median_us'],2), 'us', b['disposition'], b.get('passes_us', ''))
except Exception as e: print('$2', '$1', 'failed', e)" | tee -a $d/summary.txt; }
for q in q4 q8; do
  for t in bm512_bn64_bk32_sgm4_sgn2_splits1 bm512_bn64_bk32_sgm4_sgn2_splits2 bm512_bn64_bk16_sgm4_sgn2_splits2 \
           bm512_bn64_bk32_sgm4_sgn4_splits2 bm128_bn128_bk64_sgm2_sgn4_splits1_prepass1; do
    bench coopmat_f16${q}_$t f16:${q}_0
  done
done
bench coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits2 f16
build/gemmtune tune --shape 512x4096x14336 --layout nt --dtype f16:q4_0,f16:q8_0,f32:q4_0,f16 --budget 40 \
  --out $d/prompt.json --json > $d/prompt.out 2> $d/prompt.log
tune_summary $d/prompt.out | tee -a $d/summary.txt
.gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0|f16)' > $d/ggml.jsonl 2> $d/ggml.log
grep '"M": 512' $d/ggml.jsonl | tee -a $d/summary.txt
cp $d/summary.txt $OUT/
tar czf $OUT/call.tgz -C $d .
