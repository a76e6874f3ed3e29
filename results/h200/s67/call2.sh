#!/usr/bin/env bash
# Session 2026-12-05 (9), call 2 (after call 1 verified qrowmma): issue 48's table. The decoding tune of both types
# with f32 activations at M = 1, 2, 3, 4, 5, 8 (N 4096, K 14336, nt; `--budget 16` a shape for both types) hot and
# cold (`--cold`, `--budget 24`), M = 512 hot beside f16 dense; ggml-vulkan's own quantized cases and the copy rate
# (`gemmtune peak`) in the same call. Carry: [".gpu-kit", "build/gemmtune"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s67c2
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
build/gemmtune peak --json --out $d/peak-table.json > $d/peak.json 2> $d/peak.log
dec=1x4096x14336,2x4096x14336,3x4096x14336,4x4096x14336,5x4096x14336,8x4096x14336
build/gemmtune tune --shape $dec --layout nt --dtype f32:q4_0,f32:q8_0 --budget 16 --out $d/hot.json --json \
  > $d/hot.out 2> $d/hot.log
build/gemmtune tune --shape $dec --layout nt --dtype f32:q4_0,f32:q8_0 --budget 24 --cold --out $d/cold.json --json \
  > $d/cold.out 2> $d/cold.log
build/gemmtune tune --shape 512x4096x14336 --layout nt --dtype f32:q4_0,f32:q8_0,f16:q4_0,f16 --budget 40 \
  --out $d/prompt.json --json > $d/prompt.out 2> $d/prompt.log
for f in hot cold prompt; do
  python3 -c "
import json,sys
for p in json.load(open(sys.argv[1]))['problems']:
    b=p.get('best') or {}
    print('$f', p['problem'], 'evaluated', p['evaluated'], b.get('name'), b.get('median_us'), 'us')
" $d/$f.out | tee -a $d/summary.txt
done
timeout 120 .gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $d/ggml.jsonl 2> $d/ggml.log
cat $d/ggml.jsonl | tee -a $d/summary.txt
python3 -c "import json;print('copy_gbps', json.load(open('$d/peak.json')).get('copy_gbps'))" | tee -a $d/summary.txt
cp $d/summary.txt $d/gpu.txt $OUT/
tar czf $OUT/call.tgz -C $d .
