#!/usr/bin/env bash
# Session of 2026-12-05, call 2 (issue 48 steps 1-3): the block-quantized types
# verified on the H200 (qrowdot and the block-decoding tiled kernels, layouts nt and tt), then the decoding rates at
# M = 1..5, 8 and 512 of N 4096, K 14336, hot and cold, beside ggml-vulkan's q8_0/q4_0 cases and the copy rate.
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s56c1
mkdir -p $d
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee $d/gpu.txt
build/gemmtune devices | grep -E "q8_0|q4_0|compute units" | tee -a $d/gpu.txt
build/gemmtune peak --json > $d/peak.json 2> $d/peak.log
summary() { python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
for p in d['problems']:
    b=p.get('best') or {}
    print(p['problem'], p['dtype'], p['layout'], 'cold' if p.get('cold') else 'hot', 'evaluated', p['evaluated'], 'failed', p['failed'], 'best', b.get('name'), b.get('median_us'), 'us', 'error', b.get('error'), 'bound', b.get('bound'))
" "$1"; }
# Verification at odd shapes, both layouts, every type.
build/gemmtune tune --shape 3x1000x1056,16x4095x544,197x200x544x2 --layout nt,tt \
  --dtype f16:q8_0,f16:q4_0,f32:q8_0,f32:q4_0 --budget 24 --out $d/verify.json --json > $d/verify.out 2> $d/verify.log
summary $d/verify.out | tee $d/summary.txt
# Decoding and the prompt size, as ggml's cases run them (f32 activations there; f16 here too).
for cold in "" "--cold"; do
  build/gemmtune tune --shape 1x4096x14336,2x4096x14336,3x4096x14336,4x4096x14336,5x4096x14336,8x4096x14336 \
    --layout nt --dtype f32:q8_0,f32:q4_0 --budget 16 $cold --out $d/decode$cold.json --json \
    > $d/decode$cold.out 2> $d/decode$cold.log
  summary $d/decode$cold.out | tee -a $d/summary.txt
done
build/gemmtune tune --shape 512x4096x14336 --layout nt --dtype f32:q4_0,f16:q4_0,f16 --budget 45 \
  --out $d/prompt.json --json > $d/prompt.out 2> $d/prompt.log
summary $d/prompt.out | tee -a $d/summary.txt
.gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $d/ggml.jsonl 2> $d/ggml.log
cat $d/ggml.jsonl | tee -a $d/summary.txt
cp $d/summary.txt $d/peak.json $OUT/
tar czf $OUT/call.tgz -C $d .
