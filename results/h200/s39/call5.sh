#!/usr/bin/env bash
# Step 20 (notes, session of 2026-12-02, third), one call: ahead1's loop with the branch (base), peeled (peel) and
# peeled and unrolled (unroll), `gemmtune bench` in the order base, peel, unroll, base, cuBLAS f32 in the same call.
# Carry .gpu-kit and build-exp/.   source .gpu-kit/activate.sh && results/h200/s39/call5.sh $OUT
set -uo pipefail
out=${1:?usage: call5.sh OUT_DIR}
timeout 90 python3 .gpu-kit/cublas_anchor.py --dtypes f32 --layouts nn,nt \
  --shapes 4096x4096x4096,2048x2048x2048,512x4096x14336 > "$out/cublas.jsonl"
grep -h '"us"' "$out/cublas.jsonl" | cut -c1-160
w=warptile_f32_bm128_bn128_bk8_wm64_wn32_tm8_tn8_splits1_ahead1
cases="4096x4096x4096:nn:$w 2048x2048x2048:nn:$w 2048x2048x2048:nt:$w 2048x2048x2048:tn:$w 512x4096x14336:nt:$w
  128x768x3072:nn:warptile_f32_bm32_bn64_bk8_wm32_wn32_tm8_tn4_splits16_reduce1_ahead1"
for c in $cases; do
  IFS=: read -r shape layout config <<< "$c"
  for b in base peel unroll base; do
    r=$(build-exp/$b bench --shape $shape --layout $layout --dtype f32 --config $config --samples 10 --json 2>/dev/null |
      python3 -c 'import json,sys; d=json.load(sys.stdin)["results"][0]
print(d["median_us"], d["disposition"], d["pipeline_statistics"].get("Register Count"), d["compile_ms"])')
    echo "$shape $layout $b $r"
  done
done | tee "$out/exp.txt"
