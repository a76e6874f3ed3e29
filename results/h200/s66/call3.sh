#!/usr/bin/env bash
# Issue 48, a count for the next step: the decoding tune with f16 activations beside f32 (op(A)'s bytes halved, the
# products the same), M = 1, 2, 4, 8, hot, `--budget 6` a shape shared by the four types. Carry: [".gpu-kit",
# "build/gemmtune"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s66c3
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
build/gemmtune tune --shape 1x4096x14336,2x4096x14336,4x4096x14336,8x4096x14336 --layout nt \
  --dtype f16:q4_0,f32:q4_0,f16:q8_0,f32:q8_0 --budget 6 --out $d/decode.json --json > $d/decode.out 2> $d/decode.log
python3 -c "
import json,sys
for p in json.load(open(sys.argv[1]))['problems']:
    b=p.get('best') or {}
    print(p['problem'], 'evaluated', p['evaluated'], b.get('name'), b.get('median_us'), 'us')
" $d/decode.out | tee $d/summary.txt
cp $d/summary.txt $OUT/
tar czf $OUT/call.tgz -C $d .
