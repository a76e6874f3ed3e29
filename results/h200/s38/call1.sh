#!/usr/bin/env bash
# Step 14 (notes, session of 2026-12-02, second): the same fixed configs timed by two binaries in the order base, new,
# new, base (`gemmtune bench`, 15 samples), beside cuBLAS and ggml-vulkan in the same call.
# Carry .gpu-kit, build/gemmtune, build-base/gemmtune.   source .gpu-kit/activate.sh && call1.sh OUT
set -uo pipefail
out=${1:?usage: call1.sh OUT_DIR}
mkdir -p "$out/work"
w=$out/work
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader > "$w/smi.txt"
timeout 120 python3 .gpu-kit/cublas_anchor.py --dtypes f32,f16 --layouts nn,nt \
  --shapes 128x768x768,128x768x3072,1024x768x3072,4x3072x768,512x4096x14336,4096x4096x4096 > "$w/cublas.jsonl"
timeout 90 .gpu-kit/ggml_anchor.sh 'type_a=(f16|bf16),type_b=f32,m=4096,n=512,k=14336,' > "$w/ggml.jsonl" 2> "$w/ggml.err"
# shape layout dtype config
cases="128x768x768 nn f32 warptile_f32_bm32_bn64_bk8_wm16_wn64_tm8_tn4_splits8_reduce1
128x768x3072 nn f32 warptile_f32_bm64_bn64_bk8_wm32_wn32_tm8_tn4_splits16_reduce1
1024x768x3072 nn f32 warptile_f32_bm64_bn64_bk8_wm64_wn16_tm4_tn8_splits2_reduce1
128x768x768 nn f32 warptile_f32_bm64_bn64_bk8_wm16_wn64_tm8_tn4_splits1
128x768x768 nn f16 coopmat_f16_bm64_bn64_bk64_sgm2_sgn4_splits4
128x768x3072 nn f16 coopmat_f16_bm64_bn64_bk64_sgm2_sgn4_splits8
1024x768x3072 nn f16 coopmat_f16_bm64_bn64_bk64_sgm2_sgn2_splits2
4x3072x768 nn f16 coopmat_f16_bm64_bn64_bk32_sgm2_sgn4_splits8_stages2
128x768x768 nn f16 coopmat_f16_bm64_bn64_bk64_sgm2_sgn4_splits1
512x4096x14336 nt f16 coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits2
4096x4096x4096 nn f16 coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits1"
for label in base new new base; do
  bin=build/gemmtune; [ $label = base ] && bin=build-base/gemmtune
  while read -r shape layout dtype config; do
    t=$(timeout 60 "$bin" bench --shape "$shape" --layout "$layout" --dtype "$dtype" --config "$config" --samples 15 --json \
        2>> "$w/bench.err" | python3 -c 'import json,sys; r=json.load(sys.stdin)["results"][0]; print(r["median_us"], r["disposition"])')
    echo "$label $shape $layout $dtype $config $t" | tee -a "$out/bench.txt"
  done <<< "$cases"
done
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader >> "$w/smi.txt"
grep -h '"us"' "$w/cublas.jsonl" | cut -c1-160
cat "$w/ggml.jsonl"
tar czf "$out/logs.tgz" -C "$out" work && rm -rf "$out/work"
