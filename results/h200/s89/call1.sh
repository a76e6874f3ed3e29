#!/usr/bin/env bash
# Session after 2026-12-07 (24), call 1 (unrun): issue 43 steps 44 and 45 (results/h200/s89/step44-45.patch):
# warptile's runs of 4 columns of C as one 16-byte store, and warptile's `tiles` (several tiles a workgroup in turn,
# as coopmat's). Before the call, from a clean tree at this commit:
#   scripts/build.sh && cp build/gemmtune build/gemmtune-base
#   git apply results/h200/s89/step44-45.patch && scripts/build.sh && git stash  (or git checkout the three files)
# A/B, two rounds alternating: step 44 is base against new at one tile, step 45 the new binary's tiles 2 and 4
# against its tiles 1; then the f32 attention rows tuned with the new binary at --budget 8 beside cuBLAS.
# Carry: [".gpu-kit", "build/gemmtune", "build/gemmtune-base"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s89c1
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
bench() {  # binary layout config shape
  $1 bench --config $3 --shape $4 --layout $2 --dtype f32 --json 2>>$d/bench.log | python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$(basename $1)', '$4', '$2', '$3', round(b['median_us'],2), 'us', b['disposition'])" | tee -a $d/ab.txt
}
for round in 1 2; do
  for bin in build/gemmtune-base build/gemmtune; do
    bench $bin nt warptile_f32_bm64_bn64_bk8_wm32_wn32_tm8_tn4_splits1 2048x2048x128x32
    bench $bin nt warptile_f32_bm128_bn64_bk8_wm32_wn32_tm8_tn4_splits1 512x512x128x32
    bench $bin nt warptile_f32_bm64_bn64_bk8_wm32_wn32_tm8_tn4_splits1 2048x2048x64x12
    bench $bin nt warptile_f32_bm64_bn64_bk8_wm32_wn32_tm8_tn4_splits1 1024x2304x768
    bench $bin nn warptile_f32_bm64_bn64_bk16_wm64_wn16_tm4_tn8_splits1 768x1280x576
    bench $bin nt warptile_f32_bm128_bn128_bk8_wm32_wn64_tm8_tn8_splits1 512x4096x4096
    bench $bin nn warptile_f32_bm64_bn128_bk8_wm16_wn64_tm8_tn4_splits1_ahead1 1000x3000x1000
  done
  for t in _tiles2 _tiles4; do
    bench build/gemmtune nt warptile_f32_bm64_bn64_bk8_wm32_wn32_tm8_tn4_splits1$t 2048x2048x128x32
    bench build/gemmtune nt warptile_f32_bm128_bn64_bk8_wm32_wn32_tm8_tn4_splits1$t 512x512x128x32
    bench build/gemmtune nt warptile_f32_bm64_bn64_bk8_wm32_wn32_tm8_tn4_splits1$t 2048x2048x64x12
  done
done
grep -E "attn|odd-777|aligned-768" configs/shapes/models.txt > $d/rows.txt
scripts/models-bench.sh --budget 8 --dtypes f32 --shapes-file $d/rows.txt --out-dir $d/f32 > $d/models.log 2>&1
echo "models-bench rc $?" | tee -a $d/gpu.txt
grep -E "^\| " $d/f32/bench.md | tee $d/table.txt
cp $d/ab.txt $d/table.txt $d/gpu.txt $d/f32/bench.md $d/f32/nvidia-h200.json $d/f32/cublas.jsonl $OUT/
