#!/usr/bin/env bash
# Session of 2026-12-07 (29), call 3: issue 43's split rows, what the ranges cost. Whisper-small enc ffn-down
# (1500x768x3072 nt) and BERT ffn-down (1024x768x3072 nt) with their table tiles at every split count, the reduce
# pass against the one-pass finish, and 128 x 128 tiles; hot, one round. Binary build/gemmtune (this tree's). Carry
# [".gpu-kit", "build/gemmtune"]. About 90 s.
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/splits.txt
bench() {  # shape config
  build/gemmtune bench --config warptile_f32_$2 --shape $1 --layout nt --json 2>>$OUT/bench.err | python3 -c "
import json,sys
r=json.load(sys.stdin)['results'][0]
print('$1', r['config'], r['disposition'], round(r.get('median_us') or 0, 2))
" | tee -a $OUT/splits.txt
}
w=1500x768x3072
for s in 1 2 3 4 6 8 12 16; do
  r=$([ $s = 1 ] && echo "" || echo "_reduce1")
  bench $w bm64_bn128_bk16_wm16_wn64_tm8_tn4_splits$s$r
done
bench $w bm64_bn128_bk16_wm16_wn64_tm8_tn4_splits8
bench $w bm64_bn128_bk16_wm16_wn64_tm8_tn4_splits4
for s in 1 2 3 4 6; do
  r=$([ $s = 1 ] && echo "" || echo "_reduce1")
  bench $w bm128_bn128_bk8_wm32_wn64_tm8_tn8_splits$s$r
done
for s in 2 4 8; do bench $w bm64_bn64_bk8_wm64_wn16_tm4_tn8_splits${s}_reduce1; done
b=1024x768x3072
for s in 1 2 3 4 6; do
  r=$([ $s = 1 ] && echo "" || echo "_reduce1")
  bench $b bm64_bn64_bk8_wm64_wn16_tm4_tn8_splits$s${r}_ahead1
done
bench $b bm64_bn64_bk8_wm64_wn16_tm4_tn8_splits2_ahead1
for s in 1 2 3 4; do
  r=$([ $s = 1 ] && echo "" || echo "_reduce1")
  bench $b bm128_bn128_bk8_wm32_wn64_tm8_tn8_splits$s$r
done
