#!/usr/bin/env bash
# Session of 2026-12-05 (4), call 2: after issue 43 step 7 and issue 48 step 12 (call 1 kept both): the M = 512
# quantized tune with f16 beside it, ggml-vulkan's q4_0 / q8_0 cases in the same call; then the models suite in f16 at
# --budget 8 a shape beside cuBLAS.
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s59c2
mkdir -p $d
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee $d/gpu.txt
build/gemmtune tune --shape 512x4096x14336 --layout nt --dtype f16:q4_0,f16:q8_0,f32:q4_0,f16 --budget 40 \
  --out $d/prompt.json --json > $d/prompt.out 2> $d/prompt.log
python3 -c "
import json,sys
for p in json.load(open(sys.argv[1]))['problems']:
    b=p.get('best') or {}
    print(p['problem'], 'evaluated', p['evaluated'], 'failed', p['failed'], b.get('name'), b.get('median_us'), 'us')
" $d/prompt.out | tee -a $d/summary.txt
.gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0|f16)' > $d/ggml.jsonl 2> $d/ggml.log
grep '"M": 512' $d/ggml.jsonl | tee -a $d/summary.txt; cp $d/summary.txt $OUT/
scripts/models-bench.sh --budget 8 --dtypes f16 --out-dir $d/models > $d/models.log 2>&1
cp $d/models/bench.md $d/models/bench.json $d/models/cublas.jsonl $OUT/
tail -4 $d/models.log
tar czf $OUT/call.tgz -C $d .
