#!/usr/bin/env bash
# Session of 2026-12-07 (29), for the next session: issue 43 step 49 (warptile's k sliced inside the workgroup,
# kslices2) A/B on the f32 models rows below 0.75 whose tiles split k (rows.txt), each row's table config beside the
# same or a near tile in two slices, hot, two rounds; then `scripts/models-bench.sh --budget 15 --dtypes f32` of the
# five rows beside cuBLAS (does the screening find them). Binary build/gemmtune (the tree's). Carry [".gpu-kit",
# "build/gemmtune"]. About 200 s.
set -uo pipefail
source .gpu-kit/activate.sh
d=$(dirname "$0")
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/slices.txt
bench() {  # shape config
  build/gemmtune bench --config warptile_f32_$2 --shape $1 --layout nt --json 2>>$OUT/bench.err | python3 -c "
import json,sys
r=json.load(sys.stdin)['results'][0]
st=r.get('pipeline_statistics') or {}
print('$1', r['config'], r['disposition'], round(r.get('median_us') or 0, 2), st.get('Register Count'))
" | tee -a $OUT/slices.txt
}
for round in 1 2; do
  echo "round $round" | tee -a $OUT/slices.txt
  w=1500x768x3072
  bench $w bm64_bn64_bk8_wm64_wn16_tm4_tn8_splits4_reduce1
  for c in splits1_kslices2 splits2_reduce1_kslices2 splits4_reduce1_kslices2; do bench $w bm64_bn64_bk8_wm64_wn16_tm4_tn8_$c; done
  for c in splits1_kslices2 splits2_reduce1_kslices2; do bench $w bm64_bn128_bk8_wm16_wn64_tm8_tn4_$c; done
  b=1024x768x3072
  bench $b bm64_bn64_bk8_wm64_wn16_tm4_tn8_splits2_reduce1_ahead1
  for c in splits1_ahead1_kslices2 splits2_reduce1_ahead1_kslices2; do bench $b bm64_bn64_bk8_wm64_wn16_tm4_tn8_$c; done
  k=512x1024x4096
  bench $k bm64_bn128_bk16_wm16_wn64_tm8_tn4_splits4_reduce1
  for c in splits1_kslices2 splits2_reduce1_kslices2 splits4_reduce1_kslices2; do bench $k bm64_bn128_bk8_wm16_wn64_tm8_tn4_$c; done
  v=197x768x3072
  bench $v bm32_bn128_bk8_wm16_wn64_tm8_tn4_splits12_reduce1
  for c in splits4_reduce1_kslices2 splits6_reduce1_kslices2 splits12_reduce1_kslices2; do bench $v bm32_bn128_bk8_wm16_wn64_tm8_tn4_$c; done
  o=1500x768x768
  bench $o bm64_bn64_bk16_wm16_wn64_tm8_tn4_splits3_reduce1
  for c in splits1_kslices2 splits3_reduce1_kslices2; do bench $o bm64_bn64_bk16_wm16_wn64_tm8_tn4_$c; done
done
timeout -s INT 200 scripts/models-bench.sh --budget 15 --dtypes f32 --shapes-file $d/rows.txt --out-dir build/sl \
  > build/sl.log 2>&1
echo "models-bench rc $?" | tee -a $OUT/slices.txt
grep -E "  screened|  best:" build/sl/tune.log | tee -a $OUT/slices.txt
cp build/sl/bench.md build/sl/cublas.jsonl build/sl/nvidia-h200.json $OUT/ 2>/dev/null
