#!/usr/bin/env bash
# Session of 2026-12-05 (3), call 1 (issue 48 steps 6-8): qrowdot's quarter-block loop by adds at M = 1..5, 8 of
# N 4096, K 14336 (tuned hot, each winner timed again cold), ggml-vulkan's q8_0 / q4_0 cases in the same call, and at
# M = 512 the decoding pre-pass (coopmat prepass1) beside decoding while staging and the f16 kernel on the same tile,
# f16 and f32 activations (step 7's f32 activations on coopmat included).
d=/tmp/s58c1
source results/h200/s58/common.sh
bench() {  # bench NAME SHAPE DTYPE [--cold]
  build/gemmtune bench --config "$1" --shape "$2" --layout nt --dtype "$3" --json ${4:-} 2>>$d/bench.log | python3 -c "
import json,sys
try:
    b=json.load(sys.stdin)['results'][0]; print('$2', '$3', '$1', '${4:-hot}', round(b['median_us'],2), 'us', b['disposition'], 'error', b.get('error'))
except Exception as e: print('$2', '$3', '$1', 'failed', e)"; }
build/gemmtune tune --shape 1x4096x14336,2x4096x14336,3x4096x14336,4x4096x14336,5x4096x14336,8x4096x14336 \
  --layout nt --dtype f32:q8_0,f32:q4_0 --budget 12 --out $d/decode.json --json > $d/decode.out 2> $d/decode.log
summary $d/decode.out | tee $d/summary.txt; cp $d/summary.txt $OUT/
python3 -c "
import json,sys
for p in json.load(open(sys.argv[1]))['problems']:
    n=(p.get('best') or {}).get('name') or ''
    if n: print(n, '%dx%dx%d' % (p['m'],p['n'],p['k']), p['dtype'])
" $d/decode.out > $d/winners.txt
while read -r name shape dtype; do bench "$name" "$shape" "$dtype" --cold; done < $d/winners.txt | tee -a $d/summary.txt
cp $d/summary.txt $OUT/
.gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $d/ggml.jsonl 2> $d/ggml.log
cat $d/ggml.jsonl | tee -a $d/summary.txt; cp $d/summary.txt $d/ggml.jsonl $OUT/
# M = 512: one tile three ways (pre-pass, decoding while staging, the f16 kernel), then the tune's own pick.
t=bm128_bn128_bk64_sgm2_sgn2_splits1
for dt in f16q4:f16:q4_0 f16q8:f16:q8_0 f32q4:f32:q4_0; do
  tok=${dt%%:*}; dtype=${dt#*:}
  bench coopmat_${tok}_${t}_prepass1 512x4096x14336 $dtype | tee -a $d/summary.txt
  bench coopmat_${tok}_${t} 512x4096x14336 $dtype | tee -a $d/summary.txt
done
bench coopmat_f16_${t} 512x4096x14336 f16 | tee -a $d/summary.txt
build/gemmtune tune --shape 512x4096x14336 --layout nt --dtype f16:q4_0,f32:q4_0,f16:q8_0 --budget 30 \
  --out $d/prompt.json --json > $d/prompt.out 2> $d/prompt.log
summary $d/prompt.out | tee -a $d/summary.txt; cp $d/summary.txt $OUT/
tar czf $OUT/call.tgz -C $d .
