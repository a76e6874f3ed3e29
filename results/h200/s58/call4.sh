#!/usr/bin/env bash
# Session of 2026-12-05 (3), call 4 (issue 48 step 9, qrowdot's blocks loaded ahead; and the q4_0 operands made
# faster): call 1's decoding tune again (q4_0 got one config at M = 1, 2, 5, 8), the debug log timestamped to show
# where a problem's time goes, beside ggml-vulkan in the same call; and the decoding
# pre-pass's own cost: at M = 16 the main pass is small, so prepass1 less the f16 kernel on the same tile is about the
# pre-pass.
d=/tmp/s58c4
source results/h200/s58/common.sh
stamp() { python3 -c "
import sys,time
t0=time.time()
for l in sys.stdin: sys.stdout.write('%.3f %s' % (time.time()-t0, l))"; }
build/gemmtune -v tune --shape 1x4096x14336,2x4096x14336,5x4096x14336,8x4096x14336 --layout nt --dtype f32:q8_0,f32:q4_0 \
  --budget 12 --out $d/q4.json --json 2>&1 > $d/q4.out | stamp > $d/q4.log
summary $d/q4.out | tee $d/summary.txt
grep -E "reference|screening|finals|\[1/|\[2/" $d/q4.log | head -60 | tee -a $d/summary.txt
cp $d/summary.txt $OUT/
.gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $d/ggml.jsonl 2> $d/ggml.log
cp $d/ggml.jsonl $OUT/
bench() {  # bench NAME SHAPE DTYPE
  build/gemmtune bench --config "$1" --shape "$2" --layout nt --dtype "$3" --json 2>>$d/bench.log | python3 -c "
import json,sys
try:
    b=json.load(sys.stdin)['results'][0]; print('$2', '$3', '$1', round(b['median_us'],2), 'us', b['disposition'])
except Exception as e: print('$2', '$3', '$1', 'failed', e)"; }
t=bm64_bn128_bk64_sgm2_sgn4_splits1
for m in 16 128; do
  bench coopmat_f16q4_${t}_prepass1 ${m}x4096x14336 f16:q4_0 | tee -a $d/summary.txt
  bench coopmat_f16q4_${t} ${m}x4096x14336 f16:q4_0 | tee -a $d/summary.txt
  bench coopmat_f16_${t} ${m}x4096x14336 f16 | tee -a $d/summary.txt
done
cp $d/summary.txt $OUT/
tar czf $OUT/call.tgz -C $d .
