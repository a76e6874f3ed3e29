#!/usr/bin/env bash
# Session 2026-12-06 (12), call 6: the count for a one-pass split-k finish in coopmat (notes): each split config the
# models suite chose, timed with its passes alone (main, reduce), hot. Carry: [".gpu-kit", "build/gemmtune"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s71c6
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
bench() {  # config shape layout
  build/gemmtune bench --config $1 --shape $2 --layout $3 --dtype f16 --json 2>>$d/bench.log | python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$2', '$3', '$1', round(b['median_us'],2), 'us', b['disposition'], b.get('passes_us',''))" | tee -a $d/ab.txt
}
bench coopmat_f16_bm64_bn96_bk64_sgm4_sgn2_splits4 197x768x768 nt
bench coopmat_f16_bm64_bn96_bk64_sgm2_sgn2_splits8 197x768x3072 nt
bench coopmat_f16_bm128_bn128_bk64_sgm2_sgn4_splits4 512x1024x4096 nt
bench coopmat_f16_bm192_bn96_bk64_sgm2_sgn2_splits4 1500x768x3072 nt
bench coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits2 512x4096x14336 nt
bench coopmat_f16_bm64_bn128_bk64_sgm2_sgn2_splits8 16x4096x4096 tt
cp $d/ab.txt $d/gpu.txt $OUT/
