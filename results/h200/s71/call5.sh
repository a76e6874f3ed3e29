#!/usr/bin/env bash
# Session 2026-12-06 (12), call 5: on the reverted kernel, does BK 32 (a half-size partial step) beat BK 64 on the K-tail
# rows, against the same configs on their aligned neighbours? Hot, two rounds. Carry: [".gpu-kit", "build/gemmtune"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s71c5
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
bench() {  # config shape layout
  build/gemmtune bench --config $1 --shape $2 --layout $3 --dtype f16 --json 2>>$d/bench.log | python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$2', '$3', '$1', round(b['median_us'],2), 'us', b['disposition'])" | tee -a $d/ab.txt
}
for round in 1 2; do
  for s in 1000x3000x1000 1024x3072x1024; do
    bench coopmat_f16_bm128_bn192_bk64_sgm4_sgn4_splits1 $s nn
    bench coopmat_f16_bm96_bn128_bk32_sgm2_sgn2_splits1_stages2 $s nn
    bench coopmat_f16_bm128_bn192_bk32_sgm4_sgn4_splits1_stages2 $s nn
  done
  for s in 3000x1000x2000 3072x1024x2048; do
    bench coopmat_f16_bm192_bn128_bk64_sgm4_sgn4_splits1 $s nt
    bench coopmat_f16_bm96_bn128_bk64_sgm2_sgn2_splits1 $s nt
    bench coopmat_f16_bm192_bn128_bk32_sgm4_sgn4_splits1_stages2 $s nt
  done
done
cp $d/ab.txt $d/gpu.txt $OUT/
