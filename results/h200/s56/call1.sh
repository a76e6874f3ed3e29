#!/usr/bin/env bash
# Session of 2026-12-05, call 1 (issue 44 step 2; results/h200/s55/call1.sh with the other shapes and cuBLAS
# TF32): the bf16x6 kernel verified on the H200 in every layout and at edges, its rate beside warptile and cuBLAS
# SGEMM (TF32 off) at 2048^3 and 4096^3, the default f32 tune (every variant) at the other shapes, and cuBLAS
# with TF32 on and off with their errors on uniform and wide-range inputs.
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s56c1
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
# The default f32 tune (bf16x6 among the variants) where the issue sets its other targets.
build/gemmtune tune --shape 1024x768x3072,1024x3072x768,128x768x3072 --dtype f32 --budget 20 \
  --out $d/default.json --json > $d/default.out 2> $d/default.log
summary $d/default.out | tee -a $d/summary.txt
build/gemmtune tune --shape 512x4096x14336 --layout nt --dtype f32 --budget 30 \
  --out $d/default-nt.json --json > $d/default-nt.out 2> $d/default-nt.log
summary $d/default-nt.out | tee -a $d/summary.txt
python3 .gpu-kit/cublas_anchor.py --shapes 1024x768x3072,1024x3072x768,128x768x3072,512x4096x14336 --dtypes f32 \
  --layouts nn,nt > $d/cublas-other.jsonl 2> $d/cublas-other.log
cat $d/cublas-other.jsonl | tee -a $d/summary.txt
python3 scripts/cublas_tf32_anchor.py --shapes 2048x2048x2048,4096x4096x4096 > $d/tf32.jsonl 2> $d/tf32.log
cat $d/tf32.jsonl | tee -a $d/summary.txt
cp $d/summary.txt $d/verify.json $d/default.json $OUT/
tar czf $OUT/call.tgz -C $d .
