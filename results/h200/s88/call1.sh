#!/usr/bin/env bash
# Session 2026-12-07 (24), call 1: what the small-K batched scores are bound by (issue 43), and where the tuner's
# time outside screening goes. (1) the coopmat winner at 2048 x 2048 x K x 32 nt f16 for K = 16..256 (and batch 8),
# (2) cuBLAS's f32 and f16 C and a plain fill/copy of the same C (write_ceiling.py), (3) three standard-suite
# problems tuned at --budget 8 with their phase lines. Carry: [".gpu-kit", "build/gemmtune"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s88c1
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
bench() {  # config shape
  build/gemmtune bench --config $1 --shape $2 --layout nt --dtype f16 --json 2>>$d/bench.log | python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
s=b.get('pipeline_statistics',{})
print('$2', '$1', round(b['median_us'],2), 'us', b['disposition'], {k:v for k,v in s.items() if 'egister' in k or 'ocal' in k or 'hared' in k})" | tee -a $d/scores.txt
}
W=coopmat_f16_bm192_bn128_bk64_sgm4_sgn4_splits1
S=coopmat_f16_bm128_bn64_bk64_sgm4_sgn2_splits1
for K in 16 32 64 128 256; do bench $W 2048x2048x${K}x32; done
bench $W 2048x2048x128x8
bench $S 2048x2048x16x32
bench $S 2048x2048x128x32
bench coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits1 2048x2048x16x32
python3 results/h200/s88/write_ceiling.py > $d/ceiling.jsonl 2>>$d/bench.log
cat $d/ceiling.jsonl
build/gemmtune tune --shape 1024x768x3072,2048x2048x2048,4x3072x768 --dtype f16 --layout nt --budget 8 \
  --out $d/tune.json > $d/tune.txt 2>&1
grep -E "^[^ ].*(tuned|screened)|  time:|  screening:" $d/tune.txt | tee $d/phases.txt
tail -3 $d/bench.log
cp $d/scores.txt $d/ceiling.jsonl $d/phases.txt $d/tune.txt $d/gpu.txt $OUT/
