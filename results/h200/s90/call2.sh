#!/usr/bin/env bash
# Session of 2026-12-07 (25), call 2: issue 48 step 41b (a short first range, later ranges four times as long) at
# 512x4096x14336 nt, hot (f16:q4_0 two rounds, f16:q8_0 one), beside the dense f16 tile; 1024x11008x4096 (outside the
# suite); odd shapes verified; a --budget 15 tune of f16:q4_0 at M = 512. Then issue 43 step 45b's A/B and the
# device tests. build/gemmtune and build-test/tests/gpu_tests: builds of b8e3434 or later (steps 41b and 45b in);
# build/gemmtune-base: a build of bfeffae (before step 45b). Carry: [".gpu-kit", "build/gemmtune",
# "build-test/tests/gpu_tests", "build/gemmtune-base"]. About 5 minutes on an H100.
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
  for c in "" _chunks2 _chunks3 _chunks4; do bench 512x4096x14336 coopmat_f16q4_${t}_prepass1$c; done
done
for c in "" _chunks2 _chunks3; do bench 512x4096x14336 coopmat_f16q8_${t}_prepass1$c; done
echo "outside the suite" | tee -a $OUT/chunks.txt
bench 1024x11008x4096 coopmat_f16_$t
for c in "" _chunks2 _chunks4; do bench 1024x11008x4096 coopmat_f16q4_${t}_prepass1$c; done
echo "odd shapes, the epilogue, beta, a batch" | tee -a $OUT/chunks.txt
for q in f16q4; do
  for c in _chunks2 _chunks3; do
    build/gemmtune bench --config coopmat_${q}_bm64_bn64_bk64_sgm2_sgn2_splits1_prepass1$c --shape 77x300x4352x2 \
      --layout nt,tt --alpha 0.5 --beta -1 --bias --activation gelu-tanh --json 2>>/tmp/bench.log | python3 -c "
import json,sys
for r in json.load(sys.stdin)['results']:
  print(r['config'], r.get('layout', ''), r['disposition'], r.get('error'), r.get('detail','')[:160])
" | tee -a $OUT/chunks.txt
  done
done
# Issue 43 step 45b: warptile's tile loop and 16-byte stores of C as specialization constants (tiles, cvec), the old
# code path at tiles 1 / cvec 0: base (main before it, build/gemmtune-base) against this commit's binary at cvec0 and
# cvec1, one round, with each config's registers (pipeline statistics).
ab() {  # binary layout config shape
  $1 bench --config $3 --shape $4 --layout $2 --json 2>>/tmp/bench.log | python3 -c "
import json,sys
r=json.load(sys.stdin)['results'][0]
st={k:v for k,v in r.get('pipeline_statistics',{}).items() if 'egister' in k}
print('$(basename $1)', '$4', '$2', r['config'], round(r.get('median_us') or 0, 2), r['disposition'], st)" | tee -a $OUT/warptile.txt
}
while read -r layout config shape; do
  ab build/gemmtune-base $layout $config $shape
  ab build/gemmtune $layout $config $shape
  ab build/gemmtune $layout ${config}_cvec1 $shape
done <<'ROWS'
nt warptile_f32_bm64_bn64_bk8_wm32_wn32_tm8_tn4_splits1 2048x2048x128x32
nt warptile_f32_bm64_bn64_bk8_wm32_wn32_tm8_tn4_splits1 2048x2048x64x12
nn warptile_f32_bm64_bn64_bk16_wm64_wn16_tm4_tn8_splits1 768x1280x576
nt warptile_f32_bm128_bn128_bk8_wm32_wn64_tm8_tn8_splits1 512x4096x4096
nn warptile_f32_bm64_bn128_bk8_wm16_wn64_tm8_tn4_splits1_ahead1 1000x3000x1000
nt warptile_f32_bm64_bn64_bk8_wm32_wn32_tm8_tn4_splits1 1024x2304x768
ROWS
ab build/gemmtune nt warptile_f32_bm64_bn64_bk8_wm32_wn32_tm8_tn4_splits1_tiles4_cvec1 2048x2048x64x12
ab build/gemmtune nt warptile_f32_bm128_bn64_bk8_wm32_wn32_tm8_tn4_splits1_tiles4_cvec1 512x512x128x32
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 200 build-test/tests/gpu_tests \
  --gtest_filter='CooperativeMatrix.SeveralTiles*:QuantizedGemm.Chunk*:KitPlan.*:GemmOperation.EveryWarptile*' \
  > /tmp/tests.log 2>&1
echo "gpu_tests rc $?" | tee $OUT/tests.txt
grep -E '^\[ +(OK|PASSED|FAILED|SKIPPED) |Failure' /tmp/tests.log | head -20 | tee -a $OUT/tests.txt
timeout -s INT 60 build/gemmtune tune --shape 512x4096x14336 --layout nt --dtype f16:q4_0 --budget 15 \
  --out /tmp/m512.json > /tmp/tune.log 2>&1
grep -E "screened|screening:|  best:|runner-up" /tmp/tune.log | tee $OUT/tune.txt
