#!/usr/bin/env bash
# Session of 2026-12-04 (3), call 1 (issue 44 step 2): the bf16x6 kernel verified on the H200 in every layout and at
# edges, then its rate beside warptile and cuBLAS SGEMM (TF32 off) at 2048^3 and 4096^3.
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s55c1
mkdir -p $d
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee $d/gpu.txt
build/gemmtune devices | grep -E "bf16x6|compute units" | tee -a $d/gpu.txt
summary() { python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
for p in d['problems']:
    b=p.get('best') or {}
    print(p['problem'], p['layout'], 'evaluated', p['evaluated'], 'failed', p['failed'], 'best', b.get('name'), b.get('median_us'), 'us', round((b.get('gflops') or 0)/1000, 1), 'TFLOP/s', 'error', b.get('error'), 'bound', b.get('bound'))
" "$1"; }
# Verification: every candidate screened is checked against the double reference (f32 bound 1e-5).
build/gemmtune tune --shape 1024x1024x1024,1000x1040x1056,197x200x544x2 --layout nn,nt,tn,tt --dtype f32 \
  --variants bf16x6 --budget 12 --out $d/verify.json --json > $d/verify.out 2> $d/verify.log
summary $d/verify.out | tee $d/summary.txt
# Rate: bf16x6 against warptile at the large shapes.
for v in bf16x6 warptile; do
  build/gemmtune tune --shape 2048x2048x2048,4096x4096x4096 --dtype f32 --variants $v --budget 45 \
    --out $d/rate-$v.json --json > $d/rate-$v.out 2> $d/rate-$v.log
  summary $d/rate-$v.out | tee -a $d/summary.txt
done
python3 .gpu-kit/cublas_anchor.py --shapes 2048x2048x2048,4096x4096x4096 --dtypes f32 > $d/cublas.jsonl 2> $d/cublas.log
cat $d/cublas.jsonl | tee -a $d/summary.txt
cp $d/summary.txt $d/verify.json $OUT/
tar czf $OUT/call.tgz -C $d .
