#!/usr/bin/env bash
# Session after 2026-12-05 (6), call 1 (about 5 min): issue 43 step 14 (two large rows at --budget 8: the first
# screen's warm-up after the device check, the host check on every core, the prior's first coopmat pick) and issue
# 48 step 15 (qrowdot's blocks staged through shared memory): the last tune's decoding winners beside the same configs
# with stage1 (ahead 1), two rounds alternating, hot; then the decoding tune beside ggml-vulkan.
# Carry: [".gpu-kit", "build/gemmtune"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s63c1
mkdir -p $d
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv | tee $d/gpu.txt
build/gemmtune --shape 2048x14336x4096,2048x2048x128x32 --layout nt --dtype f16 --budget 8 -v --out $d/big.json 2>&1 |
  grep -E "preparation|time:|evaluated|baseline" | tee $d/big.txt
cases=(
  "qrowdot_f32q4_wg256_rows8_lanes4_splits1 1 f32:q4_0" "qrowdot_f32q4_wg128_rows8_lanes4_splits1_ahead2 2 f32:q4_0"
  "qrowdot_f32q4_wg64_rows8_lanes4_splits1 5 f32:q4_0" "qrowdot_f32q4_wg64_rows8_lanes4_splits1 8 f32:q4_0"
  "qrowdot_f32q8_wg256_rows2_lanes4_splits1 1 f32:q8_0" "qrowdot_f32q8_wg256_rows4_lanes4_splits1 2 f32:q8_0"
  "qrowdot_f32q8_wg256_rows4_lanes4_splits1 5 f32:q8_0" "qrowdot_f32q8_wg64_rows4_lanes4_splits1_ahead2 8 f32:q8_0"
)
for round in 1 2; do
  for c in "${cases[@]}"; do
    set -- $c
    staged=$(echo "$1" | sed -E 's/_ahead[0-9]+//')_stage1
    for config in "$1" "$staged"; do
      build/gemmtune bench --config $config --shape ${2}x4096x14336 --layout nt --dtype $3 --json 2>>$d/bench.log |
        python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$round', 'M=$2', '$3', '$config', round(b['median_us'],2), 'us', b['disposition'])" | tee -a $d/ab.txt
    done
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
cp $d/big.txt $d/ab.txt $d/summary.txt $OUT/
tar czf $OUT/call.tgz -C $d .
