#!/usr/bin/env bash
# Issue 48 step 16 (qrowdot's groups of subgroups on different rows of B; results/h200/notes.md): the last tune's
# decoding winners beside the same configs with groups 2, 4 and 8 (one round, hot), then the decoding tune beside
# ggml-vulkan (hot). Carry: [".gpu-kit", "build/gemmtune"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s66c1
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
cases=(
  "qrowdot_f32q4_wg256_rows8_lanes4_splits1 1 f32:q4_0 1 2 4 8"
  "qrowdot_f32q8_wg256_rows2_lanes4_splits1 1 f32:q8_0 1 2 4 8"
  "qrowdot_f32q4_wg128_rows8_lanes4_splits1_ahead2 2 f32:q4_0 1 2 4"
  "qrowdot_f32q4_wg64_rows8_lanes4_splits1 5 f32:q4_0 1"
  "qrowdot_f32q4_wg256_rows8_lanes4_splits1 5 f32:q4_0 1 4 8"
  "qrowdot_f32q4_wg64_rows4_lanes4_splits1_ahead2 8 f32:q4_0 1"
  "qrowdot_f32q4_wg256_rows4_lanes4_splits1_ahead2 8 f32:q4_0 1 4 8"
  "qrowdot_f32q8_wg64_rows4_lanes4_splits1_ahead2 8 f32:q8_0 1"
  "qrowdot_f32q8_wg256_rows4_lanes4_splits1_ahead2 8 f32:q8_0 4 8"
)
for c in "${cases[@]}"; do
  set -- $c
  base=$1 m=$2 dt=$3
  shift 3
  for g in "$@"; do
    config=$base
    [ "$g" != 1 ] && config=${base}_groups$g
    build/gemmtune bench --config $config --shape ${m}x4096x14336 --layout nt --dtype $dt --json 2>>$d/bench.log |
      python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('M=$m', '$dt', '$config', round(b['median_us'],2), 'us', b['disposition'])" | tee -a $d/ab.txt
  done
done
build/gemmtune tune --shape 1x4096x14336,2x4096x14336,5x4096x14336,8x4096x14336 --layout nt \
  --dtype f32:q4_0,f32:q8_0 --budget 12 --out $d/decode.json --json > $d/decode.out 2> $d/decode.log
python3 -c "
import json,sys
for p in json.load(open(sys.argv[1]))['problems']:
    b=p.get('best') or {}
    print(p['problem'], 'evaluated', p['evaluated'], b.get('name'), b.get('median_us'), 'us')
" $d/decode.out | tee $d/summary.txt
.gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $d/ggml.jsonl 2> $d/ggml.log
grep -v '"M": 512' $d/ggml.jsonl | tee -a $d/summary.txt
cp $d/ab.txt $d/summary.txt $OUT/
tar czf $OUT/call.tgz -C $d .
