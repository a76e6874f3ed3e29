#!/usr/bin/env bash
# Session of 2026-12-07 (25), call 2: issue 48 step 41b (a short first range, later ranges four times as long) at
# 512x4096x14336 nt, hot, two rounds, beside the dense f16 tile; 1024x11008x4096 and 2048x4096x14336 (outside the
# suite); odd shapes verified; a --budget 20 tune of f16:q4_0 at M = 512. Then s89/call2.sh (bf16 attention rows, the
# 2048-token d128 scores at --budget 40, the device tests). build/gemmtune is the working tree of this commit built;
# build-test/tests/gpu_tests likewise. Carry: [".gpu-kit", "build/gemmtune", "build-test/tests/gpu_tests",
# "build/gemmtune-base", "build/gemmtune-s89"].
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
bench() {  # shape config
  build/gemmtune bench --config $2 --shape $1 --layout nt --json 2>>/tmp/bench.log | python3 -c "
import json,sys
r=json.load(sys.stdin)['results'][0]
print('$1', r['config'], r['disposition'], round(r.get('median_us') or 0, 1), r.get('passes_us', ''), r.get('detail','')[:160])
" | tee -a $OUT/chunks.txt
}
t=bm128_bn128_bk64_sgm2_sgn4_splits1
for round in 1 2; do
  echo "round $round" | tee -a $OUT/chunks.txt
  bench 512x4096x14336 coopmat_f16_$t
  for q in f16q4 f16q8; do
    for c in "" _chunks2 _chunks3 _chunks4; do bench 512x4096x14336 coopmat_${q}_${t}_prepass1$c; done
  done
done
echo "outside the suite" | tee -a $OUT/chunks.txt
bench 1024x11008x4096 coopmat_f16_$t
for c in "" _chunks2 _chunks4; do bench 1024x11008x4096 coopmat_f16q4_${t}_prepass1$c; done
bench 2048x4096x14336 coopmat_f16_$t
for c in "" _chunks2 _chunks3; do bench 2048x4096x14336 coopmat_f16q4_${t}_prepass1$c; done
echo "odd shapes, the epilogue, beta, a batch" | tee -a $OUT/chunks.txt
for q in f16q4 f32q8; do
  for c in _chunks2 _chunks3; do
    build/gemmtune bench --config coopmat_${q}_bm64_bn64_bk64_sgm2_sgn2_splits1_prepass1$c --shape 77x300x4352x2 \
      --layout nt,tt --alpha 0.5 --beta -1 --bias --activation gelu-tanh --json 2>>/tmp/bench.log | python3 -c "
import json,sys
for r in json.load(sys.stdin)['results']:
  print(r['config'], r.get('layout', ''), r['disposition'], r.get('error'), r.get('detail','')[:160])
" | tee -a $OUT/chunks.txt
  done
done
timeout -s INT 90 build/gemmtune tune --shape 512x4096x14336 --layout nt --dtype f16:q4_0 --budget 20 \
  --out /tmp/m512.json > /tmp/tune.log 2>&1
grep -E "screened|screening:|  best:|runner-up" /tmp/tune.log | tee $OUT/tune.txt
# Issue 43 steps 44-45's count: the registers of the warptile configs whose time moved (build/gemmtune-base: main
# before the patch; build/gemmtune-s89: with results/h200/s89/step44-45.patch; carry both).
for bin in build/gemmtune-base build/gemmtune-s89; do
  for sc in "512x4096x4096 nt warptile_f32_bm128_bn128_bk8_wm32_wn64_tm8_tn8_splits1" \
            "1000x3000x1000 nn warptile_f32_bm64_bn128_bk8_wm16_wn64_tm8_tn4_splits1_ahead1" \
            "2048x2048x64x12 nt warptile_f32_bm64_bn64_bk8_wm32_wn32_tm8_tn4_splits1"; do
    set -- $sc
    $bin bench --config $3 --shape $1 --layout $2 --json 2>>/tmp/bench.log | python3 -c "
import json,sys
r=json.load(sys.stdin)['results'][0]
st={k:v for k,v in r.get('pipeline_statistics',{}).items() if 'egister' in k or 'hared' in k or 'pill' in k}
print('$(basename $bin)', '$1', r['config'], round(r.get('median_us') or 0, 1), st)" | tee -a $OUT/registers.txt
  done
done
