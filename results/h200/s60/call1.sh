#!/usr/bin/env bash
# Session of 2026-12-05 (5), call 1 (the session's device time nearly spent: one short call): where a large problem's
# preparation goes (the debug log's parts, with this tree's parallel operands and reference and the one-sample
# baseline), then issue 48 step 14's A/B from the session before's call5.sh (base = c4a16fc's binary, new = this
# tree), one round. Carry: [".gpu-kit", "build/gemmtune", "build/base/gemmtune"].
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/prep.txt
nproc >> $OUT/prep.txt
build/gemmtune --shape 2048x14336x4096,512x14336x4096 --layout nt --dtype f16 --budget 8 -v --out /tmp/big.json 2>&1 |
  grep -E "preparation|time:|evaluated|reference ready|baseline" >> $OUT/prep.txt
cases=(
  "qrowdot_f32q4_wg256_rows4_lanes4_splits1 1 f32:q4_0" "qrowdot_f32q4_wg64_rows4_lanes4_splits1_ahead4 2 f32:q4_0"
  "qrowdot_f32q4_wg64_rows4_lanes4_splits1_ahead4 5 f32:q4_0" "qrowdot_f32q4_wg64_rows8_lanes4_splits1 8 f32:q4_0"
  "qrowdot_f32q8_wg256_rows2_lanes4_splits1 1 f32:q8_0" "qrowdot_f32q8_wg256_rows4_lanes4_splits1 5 f32:q8_0"
  "qrowdot_f32q8_wg128_rows4_lanes4_splits1_ahead2 8 f32:q8_0"
)
for c in "${cases[@]}"; do
  set -- $c
  for bin in base new; do
    exe=build/gemmtune; [ $bin = base ] && exe=build/base/gemmtune
    $exe bench --config $1 --shape ${2}x4096x14336 --layout nt --dtype $3 --json 2>/dev/null | python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$bin', 'M=$2', '$3', '$1', round(b['median_us'],2), 'us', b['disposition'])" >> $OUT/ab.txt
  done
done
