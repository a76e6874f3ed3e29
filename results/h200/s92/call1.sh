#!/usr/bin/env bash
# Session of 2026-12-07 (27), call 1. First issue 48 step 42 (s91/call2.sh: arriving ranges at 512x4096x14336 beside
# dense f16 and chunks 1, the coopmat kit test); then issue 43 step 46 (warptile's stream-K) on the four f32 rows below
# 0.75 beside cuBLAS and the tables' configs, hot; then `tune --budget 20` on those rows and two shapes outside the
# suite (shapes.txt), stream-K in the space; last, if time is left, the f32 rows the models run lacks (s91/rest.txt).
# Binaries: build/gemmtune-arrive and build/gpu_tests-arrive (this session's tree with stream-K). Carry [".gpu-kit",
# "build/gemmtune-arrive", "build/gpu_tests-arrive"]. About 8 minutes on an H100.
set -uo pipefail
source .gpu-kit/activate.sh
d=$(dirname "$0")
bin=build/gemmtune-arrive
bash results/h200/s91/call2.sh
python3 scripts/cublas_batched_anchor.py $d/shapes.txt --dtypes f32 > $OUT/cublas.jsonl 2>/tmp/cublas.log
bench() {  # shape layout config
  $bin bench --config $3 --shape $1 --layout $2 --json 2>>/tmp/bench.log | python3 -c "
import json,sys
r=json.load(sys.stdin)['results'][0]
print('$1', r['config'], r['disposition'], round(r.get('median_us') or 0, 2), r.get('detail','')[:160])
" | tee -a $OUT/stream.txt
}
w=warptile_f32_bm128_bn128_bk8_wm32_wn64_tm8_tn8_splits1
for round in 1 2; do
  echo "round $round" | tee -a $OUT/stream.txt
  bench 1024x768x3072 nt warptile_f32_bm64_bn64_bk8_wm64_wn16_tm4_tn8_splits2_reduce1_ahead1
  for s in 11 19 22; do bench 1024x768x3072 nt ${w}_stream$s; done
  bench 1500x768x3072 nt warptile_f32_bm64_bn64_bk8_wm64_wn16_tm4_tn8_splits4_reduce1
  for s in 7 13; do bench 1500x768x3072 nt ${w}_stream$s; done
  bench 512x1024x4096 nt warptile_f32_bm128_bn128_bk16_wm64_wn16_tm4_tn8_splits4_reduce1
  for s in 16 33; do bench 512x1024x4096 nt ${w}_stream$s; done
  bench 1500x768x768 nt warptile_f32_bm64_bn64_bk16_wm16_wn64_tm8_tn4_splits3_reduce1
  for s in 7 13; do bench 1500x768x768 nt ${w}_stream$s; done
done
$bin tune --shapes-file $d/shapes.txt --dtype f32 --budget 20 --out /tmp/stream-tune.json > /tmp/tune.log 2>&1
cp /tmp/stream-tune.json $OUT/tune.json
grep -E "screened|screening:|  best:|runner-up|^\[info\] [a-z].*: [0-9x]+ f32" /tmp/tune.log | grep -v "\[info\] \[" | tee -a $OUT/stream.txt
GEMMTUNE_BIN=$bin timeout 200 scripts/models-bench.sh --dtypes f32 --shapes-file results/h200/s91/rest.txt \
  --out-dir /tmp/rest > /tmp/rest.log 2>&1
cp /tmp/rest/bench.md $OUT/rest.md; cp /tmp/rest/nvidia-h200.json $OUT/rest.json
