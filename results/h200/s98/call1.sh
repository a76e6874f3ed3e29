#!/usr/bin/env bash
# Session of 2026-12-08 (30): issue 43 step 49 (warptile's k sliced inside the workgroup, kslices2) A/B on the f32
# models rows below 0.75 whose tiles split k, each row's table config beside the same or a near tile in two slices;
# step 50 (unaligned interior tiles staged unchecked) on the edge row 777x1234x555 nn beside its aligned neighbour
# (the same configs; their path did not change) and the table's bf16x6 config; hot, two rounds. Then
# `scripts/models-bench.sh --budget ${BUDGET:-15} --dtypes f32` of rows.txt beside cuBLAS (does the screening find them).
# Binary build/gemmtune (the tree's). Carry [".gpu-kit", "build/gemmtune"]. About 240 s (ROUNDS=1 BUDGET=10: 150).
set -uo pipefail
source .gpu-kit/activate.sh
d=$(dirname "$0")
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/ab.txt
bench() {  # shape family_config layout
  build/gemmtune bench --config $2 --shape $1 --layout $3 --json 2>>$OUT/bench.err | python3 -c "
import json,sys
r=json.load(sys.stdin)['results'][0]
st=r.get('pipeline_statistics') or {}
print('$1 $3', r['config'], r['disposition'], round(r.get('median_us') or 0, 2), st.get('Register Count'))
" | tee -a $OUT/ab.txt
}
w() { bench $1 warptile_f32_$2 nt; }
for round in $(seq ${ROUNDS:-2}); do
  echo "round $round" | tee -a $OUT/ab.txt
  s=1500x768x3072
  w $s bm64_bn64_bk8_wm64_wn16_tm4_tn8_splits4_reduce1
  for c in splits1_kslices2 splits2_reduce1_kslices2 splits4_reduce1_kslices2; do w $s bm64_bn64_bk8_wm64_wn16_tm4_tn8_$c; done
  for c in splits1_kslices2 splits2_reduce1_kslices2; do w $s bm64_bn128_bk8_wm16_wn64_tm8_tn4_$c; done
  s=1024x768x3072
  w $s bm64_bn64_bk8_wm64_wn16_tm4_tn8_splits2_reduce1_ahead1
  for c in splits1_ahead1_kslices2 splits2_reduce1_ahead1_kslices2; do w $s bm64_bn64_bk8_wm64_wn16_tm4_tn8_$c; done
  s=512x1024x4096
  w $s bm64_bn128_bk16_wm16_wn64_tm8_tn4_splits4_reduce1
  for c in splits1_kslices2 splits2_reduce1_kslices2 splits4_reduce1_kslices2; do w $s bm64_bn128_bk8_wm16_wn64_tm8_tn4_$c; done
  s=197x768x3072
  w $s bm32_bn128_bk8_wm16_wn64_tm8_tn4_splits12_reduce1
  for c in splits4_reduce1_kslices2 splits6_reduce1_kslices2 splits12_reduce1_kslices2; do w $s bm32_bn128_bk8_wm16_wn64_tm8_tn4_$c; done
  s=1500x768x768
  w $s bm64_bn64_bk16_wm16_wn64_tm8_tn4_splits3_reduce1
  for c in splits1_kslices2 splits3_reduce1_kslices2; do w $s bm64_bn64_bk16_wm16_wn64_tm8_tn4_$c; done
  for s in 777x1234x555 768x1280x576; do
    for c in bm64_bn128_bk16_wm32_wn32_tm8_tn4_splits1_ahead1 bm64_bn128_bk16_wm64_wn16_tm4_tn8_splits1_ahead1_cvec1 \
      bm64_bn64_bk16_wm32_wn32_tm8_tn4_splits1_ahead1 bm128_bn128_bk16_wm64_wn32_tm8_tn8_splits1_ahead1; do
      bench $s warptile_f32_$c nn
    done
  done
  bench 777x1234x555 bf16x6_f32_bm64_bn64_bk16_sgm2_sgn2_splits1_stages2_prepass1 nn
done
timeout -s INT 240 scripts/models-bench.sh --budget ${BUDGET:-15} --dtypes f32 --shapes-file $d/rows.txt --out-dir build/sl \
  > build/sl.log 2>&1
echo "models-bench rc $?" | tee -a $OUT/ab.txt
grep -E "  screened|  best:" build/sl/tune.log | tee -a $OUT/ab.txt
cp build/sl/bench.md build/sl/cublas.jsonl build/sl/nvidia-h200.json $OUT/ 2>/dev/null
tail -5 build/sl.log > $OUT/sl-tail.txt
