#!/usr/bin/env bash
# Session of 2026-12-05 (3), call 6 (issue 48 step 11): the plane builds without a writable view of binding 4 (the
# split-k scratch declaration left out where binding 4 holds a pre-pass's output); call 5's one-tile comparison again,
# and bf16x6's planes build at 4096^3 (the same change; call 3: 3391.4 us); each pass timed alone (bench's passes_us).
d=/tmp/s58c6
source results/h200/s58/common.sh
t=bm64_bn128_bk64_sgm2_sgn4_splits1
for c in "coopmat_f16q4_${t}_prepass1 16x4096x14336 f16:q4_0" "coopmat_f16_${t} 16x4096x14336 f16" \
         "coopmat_f16q4_${t}_prepass1 512x4096x14336 f16:q4_0" "coopmat_f16_${t} 512x4096x14336 f16" \
         "bf16x6_f32_bm64_bn128_bk32_sgm2_sgn2_splits1_stages1_prepass1 4096x4096x4096 f32 nn"; do
  set -- $c
  build/gemmtune bench --config $1 --shape $2 --layout ${4:-nt} --dtype $3 --json 2>>$d/bench.log | python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]; print('$2', '$3', '$1', round(b['median_us'],2), 'us', b['disposition'], b.get('passes_us', ''))" \
    | tee -a $d/summary.txt
done
cp $d/summary.txt $OUT/
