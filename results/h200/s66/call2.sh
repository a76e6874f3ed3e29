#!/usr/bin/env bash
# Issue 48 step 17 (qrowdot's op(A) elements loaded with B's words, `apre`; results/h200/notes.md): configs near the
# last tune's winners at M = 1, 2, 4 with apre 0 and 1 (one round, hot), then the tune at those M beside ggml-vulkan
# (hot). Carry: [".gpu-kit", "build/gemmtune"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s66c2
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
cases=(
  "qrowdot_f32q4_wg256_rows8_lanes4_splits1 1 f32:q4_0" "qrowdot_f32q4_wg256_rows8_lanes4_splits1_ahead2 1 f32:q4_0"
  "qrowdot_f32q4_wg256_rows4_lanes4_splits1_ahead4 1 f32:q4_0" "qrowdot_f32q8_wg256_rows2_lanes4_splits1 1 f32:q8_0"
  "qrowdot_f32q8_wg256_rows2_lanes4_splits1_ahead2 1 f32:q8_0"
  "qrowdot_f32q4_wg128_rows4_lanes4_splits1_ahead2_groups2 2 f32:q4_0"
  "qrowdot_f32q8_wg256_rows2_lanes4_splits1 2 f32:q8_0" "qrowdot_f32q4_wg256_rows4_lanes4_splits1 4 f32:q4_0"
)
for c in "${cases[@]}"; do
  set -- $c
  for config in "$1" "${1}_apre1"; do
    build/gemmtune bench --config $config --shape ${2}x4096x14336 --layout nt --dtype $3 --json 2>>$d/bench.log |
      python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('M=$2', '$3', '$config', round(b['median_us'],2), 'us', b['disposition'])" | tee -a $d/ab.txt
  done
done
build/gemmtune tune --shape 1x4096x14336,2x4096x14336,4x4096x14336 --layout nt \
  --dtype f32:q4_0,f32:q8_0 --budget 12 --out $d/decode.json --json > $d/decode.out 2> $d/decode.log
python3 -c "
import json,sys
for p in json.load(open(sys.argv[1]))['problems']:
    b=p.get('best') or {}
    print(p['problem'], 'evaluated', p['evaluated'], b.get('name'), b.get('median_us'), 'us')
" $d/decode.out | tee $d/summary.txt
.gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $d/ggml.jsonl 2> $d/ggml.log
grep -E '"M": (1|2|4),' $d/ggml.jsonl | tee -a $d/summary.txt
cp $d/ab.txt $d/summary.txt $OUT/
tar czf $OUT/call.tgz -C $d .
