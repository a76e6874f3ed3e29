#!/usr/bin/env bash
# Session of 2026-12-07 (27), call 2: why stream-K lost (call 1): the same tiles as split-k (reduce pass and one-pass
# finish) and as stream-K, with the pipelines' register counts, at 512x1024x4096 and 1024x768x3072 nt. Binary
# build/gemmtune-s92 (this session's tree, the stream path keeping only its run's position live across a part's k
# loop). Carry [".gpu-kit", "build/gemmtune-s92"]. About 60 s on an H100.
set -uo pipefail
source .gpu-kit/activate.sh
bin=build/gemmtune-s92
bench() {  # shape config
  $bin bench --config $2 --shape $1 --layout nt --json 2>>/tmp/bench.log | python3 -c "
import json,sys
r=json.load(sys.stdin)['results'][0]
st=r.get('pipeline_statistics') or {}
regs={k:v for k,v in (st.items() if isinstance(st,dict) else []) if 'egister' in k or 'pill' in k or 'hared' in k}
print('$1', r['config'], r['disposition'], round(r.get('median_us') or 0, 2), regs, r.get('detail','')[:120])
" | tee -a $OUT/why.txt
}
a=warptile_f32_bm128_bn128_bk16_wm64_wn16_tm4_tn8
b=warptile_f32_bm128_bn128_bk8_wm32_wn64_tm8_tn8
for c in ${a}_splits4_reduce1 ${a}_splits4 ${a}_splits1_stream16 ${b}_splits4_reduce1 ${b}_splits4 ${b}_splits1_stream16; do
  bench 512x1024x4096 $c
done
c=warptile_f32_bm64_bn64_bk8_wm64_wn16_tm4_tn8
for c in ${c}_splits2_reduce1_ahead1 ${c}_splits1_stream5_ahead1 ${c}_splits1_stream6_ahead1 ${c}_splits1_stream9_ahead1; do
  bench 1024x768x3072 $c
done
$bin bench --config ${b}_splits1_stream16 --shape 512x1024x4096 --layout nt --json 2>/dev/null | python3 -c "
import json,sys; print(json.load(sys.stdin)['results'][0].get('pipeline_statistics'))" | tee -a $OUT/why.txt
