#!/usr/bin/env bash
# Session of 2026-12-05, call 3 (issue 48 step 4): qrowdot with op(A)'s block held in registers for M <= 4, decoding
# at M = 1..5 and 8 of N 4096, K 14336 (f32 activations, hot) beside ggml-vulkan's q8_0 / q4_0 cases, same call.
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s56c3
mkdir -p $d
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee $d/gpu.txt
summary() { python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
for p in d['problems']:
    b=p.get('best') or {}
    print(p['problem'], 'cold' if p.get('cold') else 'hot', 'evaluated', p['evaluated'], 'failed', p['failed'], 'best', b.get('name'), b.get('median_us'), 'us', 'error', b.get('error'))
" "$1"; }
build/gemmtune tune --shape 1x4096x14336,2x4096x14336,3x4096x14336,4x4096x14336,5x4096x14336,8x4096x14336 \
  --layout nt --dtype f32:q8_0,f32:q4_0 --budget 16 --out $d/decode.json --json > $d/decode.out 2> $d/decode.log
summary $d/decode.out | tee $d/summary.txt
.gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $d/ggml.jsonl 2> $d/ggml.log
cat $d/ggml.jsonl | tee -a $d/summary.txt
cp $d/summary.txt $d/decode.out $d/ggml.jsonl $OUT/
