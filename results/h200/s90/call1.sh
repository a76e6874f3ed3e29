#!/usr/bin/env bash
# Session of 2026-12-07 (25), call 1: issue 48 step 41, chunked decoding (the decoding of k range i + 1 recorded
# beside the main pass over range i, no barrier between the two). build/gemmtune-wip is the binary of 96b425d
# (rules::DispatchRule::chunks, the `chunks` parameter; built from c21f809 with the change, so it says c21f809-dirty).
# At 512x4096x14336 nt, hot, two rounds: the pre-pass configs at chunks 1, 2, 4, 8 beside the dense f16 tile, each
# kind of pass alone (passes_us: every decoding pass back to back, every main pass back to back), then one shape
# outside the suite. Carry: [".gpu-kit", "build/gemmtune-wip", ...]. About 3 minutes.
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
bench() {  # shape config
  build/gemmtune-wip bench --config $2 --shape $1 --layout nt --json 2>>/tmp/bench.log | python3 -c "
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
    for c in "" _chunks2 _chunks4 _chunks8; do bench 512x4096x14336 coopmat_${q}_${t}_prepass1$c; done
  done
  for c in "" _chunks4; do bench 512x4096x14336 coopmat_f32q4_${t}_prepass1$c; done
done
echo "outside the suite" | tee -a $OUT/chunks.txt
bench 1024x11008x4096 coopmat_f16_$t
for c in "" _chunks2 _chunks4; do bench 1024x11008x4096 coopmat_f16q4_${t}_prepass1$c; done
echo "odd shapes, the epilogue, beta, a batch" | tee -a $OUT/chunks.txt
for q in f16q4 f32q8; do
  for c in _chunks2 _chunks4; do
    build/gemmtune-wip bench --config coopmat_${q}_bm64_bn64_bk64_sgm2_sgn2_splits1_prepass1$c --shape 77x300x4352x2 \
      --layout nt,tt --alpha 0.5 --beta -1 --bias --activation gelu-tanh --json 2>>/tmp/bench.log | python3 -c "
import json,sys
for r in json.load(sys.stdin)['results']:
  print(r['config'], r['layout'] if 'layout' in r else '', r['disposition'], r.get('error'), r.get('detail','')[:160])
" | tee -a $OUT/chunks.txt
  done
done
