#!/usr/bin/env bash
# Session of 2026-12-05 (3), call 5 (issue 48 step 10): the decoding pre-pass reading whole words through shared
# memory. Its cost on one tile at M = 16 against the dense f16 kernel (the same main pass), the same tile at M = 512,
# and the M = 512 tune, beside ggml-vulkan's q4_0 / q8_0 cases in the same call.
d=/tmp/s58c5
source results/h200/s58/common.sh
bench() {  # bench NAME SHAPE DTYPE
  build/gemmtune bench --config "$1" --shape "$2" --layout nt --dtype "$3" --json 2>>$d/bench.log | python3 -c "
import json,sys
try:
    b=json.load(sys.stdin)['results'][0]; print('$2', '$3', '$1', round(b['median_us'],2), 'us', b['disposition'])
except Exception as e: print('$2', '$3', '$1', 'failed', e)"; }
t=bm64_bn128_bk64_sgm2_sgn4_splits1
for m in 16 512; do
  bench coopmat_f16q4_${t}_prepass1 ${m}x4096x14336 f16:q4_0 | tee -a $d/summary.txt
  bench coopmat_f16q8_${t}_prepass1 ${m}x4096x14336 f16:q8_0 | tee -a $d/summary.txt
  bench coopmat_f16_${t} ${m}x4096x14336 f16 | tee -a $d/summary.txt
done
cp $d/summary.txt $OUT/
build/gemmtune tune --shape 512x4096x14336 --layout nt --dtype f16:q4_0,f16:q8_0 --budget 20 \
  --out $d/prompt.json --json > $d/prompt.out 2> $d/prompt.log
summary $d/prompt.out | tee -a $d/summary.txt; cp $d/summary.txt $OUT/
.gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $d/ggml.jsonl 2> $d/ggml.log
grep '"M": 512' $d/ggml.jsonl | tee -a $d/summary.txt; cp $d/summary.txt $d/ggml.jsonl $OUT/
tar czf $OUT/call.tgz -C $d .
