#!/usr/bin/env bash
# Session of 2026-12-07 (27), for the next session: issue 43 step 47 (warptile's 16-row tiles for M <= 16) at
# decode-m16-tt beside the table's 32-row config and cuBLAS, hot, two rounds; 16x4096x4096 nt and 12x11008x4096 nt
# outside the suite; step 48 (warptile's aligning pre-pass for f32 rows off 16 bytes) at odd-777x1234x555 nn beside the
# table's bf16x6 config; then a `--budget 15` tune of the four (does the screening find them). Binary
# build/gemmtune-s93 (this tree's build/gemmtune). Carry [".gpu-kit", "build/gemmtune-s93"]. About 150 s on an H100.
set -uo pipefail
source .gpu-kit/activate.sh
d=$(dirname "$0")
bin=build/gemmtune-s93
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/rows16.txt
python3 scripts/cublas_batched_anchor.py $d/shapes.txt --dtypes f32 > $OUT/cublas.jsonl 2>/tmp/cublas.log
bench() {  # shape layout config
  $bin bench --config $3 --shape $1 --layout $2 --json 2>>/tmp/bench.log | python3 -c "
import json,sys
r=json.load(sys.stdin)['results'][0]
st=r.get('pipeline_statistics') or {}
print('$1 $2', r['config'], r['disposition'], round(r.get('median_us') or 0, 2), st.get('Register Count'))
" | tee -a $OUT/rows16.txt
}
for round in 1 2; do
  echo "round $round" | tee -a $OUT/rows16.txt
  bench 16x4096x4096 tt warptile_f32_bm32_bn128_bk16_wm32_wn32_tm8_tn4_splits16_reduce1_ahead1
  for c in bm16_bn128_bk16_wm16_wn32_tm4_tn4_splits16_reduce1_ahead1 bm16_bn128_bk16_wm16_wn32_tm4_tn4_splits8_reduce1 \
           bm16_bn128_bk8_wm16_wn64_tm4_tn8_splits16_reduce1 bm16_bn64_bk16_wm16_wn32_tm4_tn4_splits8_reduce1; do
    bench 16x4096x4096 tt warptile_f32_$c
  done
  bench 16x4096x4096 nt warptile_f32_bm32_bn128_bk16_wm32_wn32_tm8_tn4_splits16_reduce1
  bench 16x4096x4096 nt warptile_f32_bm16_bn128_bk16_wm16_wn32_tm4_tn4_splits16_reduce1
  bench 777x1234x555 nn bf16x6_f32_bm64_bn64_bk16_sgm2_sgn2_splits1_stages2_prepass1
  bench 777x1234x555 nn warptile_f32_bm64_bn128_bk16_wm32_wn32_tm8_tn4_splits1_ahead1
  for c in bm64_bn128_bk16_wm32_wn32_tm8_tn4_splits1_ahead1_prepass1 bm64_bn64_bk16_wm64_wn16_tm4_tn8_splits1_prepass1; do
    bench 777x1234x555 nn warptile_f32_$c
  done
  bench 768x1280x576 nn warptile_f32_bm64_bn128_bk16_wm32_wn32_tm8_tn4_splits1_ahead1_cvec1
done
$bin tune --shapes-file $d/shapes.txt --dtype f32 --budget 15 --out /tmp/t.json > /tmp/tune.log 2>&1
grep -E "screened|  best:|runner-up|^\[info\] [a-z].*: [0-9x]+ f32" /tmp/tune.log | grep -v "\[info\] \[" | tee -a $OUT/rows16.txt
cp /tmp/t.json $OUT/tune.json
