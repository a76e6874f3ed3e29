#!/usr/bin/env bash
# Session 2026-12-06 (18), call 2 (issue 43, "the misses and the attempts on record"): are the 16-bit mid and large
# rows at 0.33-0.39 of cuBLAS below the square case, or at its ratio within the calls' spread? Three rounds, each
# cuBLAS on s79/mid-shapes.txt then gemmtune's table configs (results/h200/models/bench.md's f16 winners, coopmat
# 128 x 128 x 64 at 2 x 2 for the squares) on the same problems; ratios per round. Carry: [".gpu-kit",
# "build/gemmtune"]. About 3 minutes.
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/mid.txt
shapes=results/h200/s79/mid-shapes.txt
declare -A config=(
  [square-nn]=coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits1 [square-nt]=coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits1
  [llama3-8b-t512-q-o]=coopmat_f16_bm128_bn128_bk64_sgm2_sgn4_splits1
  [llama3-8b-t512-gate-up]=coopmat_f16_bm128_bn128_bk64_sgm2_sgn4_splits1
  [llama3-8b-t2048-q-o]=coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits1
  [llama3-8b-t2048-k-v]=coopmat_f16_bm128_bn128_bk64_sgm2_sgn4_splits1
  [bert-b8-ffn-down]=coopmat_f16_bm96_bn64_bk128_sgm2_sgn2_splits1
  [whisper-small-enc-qkv]=coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits1
  [aligned-3072x1024x2048]=coopmat_f16_bm192_bn128_bk64_sgm4_sgn2_splits1
  [odd-3000x1000x2000]=coopmat_f16_bm192_bn128_bk64_sgm4_sgn4_splits1)
for round in 1 2 3; do
  python3 scripts/cublas_batched_anchor.py $shapes --dtypes f16 > /tmp/cublas-$round.jsonl 2>>$OUT/mid.log
  grep -v '^#' $shapes | while read -r name shape dtype layout; do
    [ -n "$name" ] || continue
    us=$(build/gemmtune bench --config ${config[$name]} --shape $shape --layout $layout --dtype $dtype --json \
      2>>$OUT/mid.log | python3 -c "import json,sys; print(round(json.load(sys.stdin)['results'][0]['median_us'],2))")
    cu=$(python3 -c "
import json
for l in open('/tmp/cublas-$round.jsonl'):
    r=json.loads(l)
    if r['name']=='$name': print(round(r['us'],2))")
    echo "round $round $name $shape $layout gemmtune $us cublas $cu ratio $(python3 -c "print(round($cu/$us,3))")" |
      tee -a $OUT/mid.txt
  done
done
