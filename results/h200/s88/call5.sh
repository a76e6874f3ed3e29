#!/usr/bin/env bash
# Session 2026-12-07 (24), call 5: issue 43 step 43 kept; tiles 8 against 4 where the waves rank 8 first, then the
# attention rows with K <= 512 (and one shape outside the suite) tuned at --budget 8 (f16) beside cuBLAS
# (scripts/models-bench.sh on results/h200/s88/attention.txt). Carry: [".gpu-kit", "build/gemmtune"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s88c5
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
bench() {  # dtype layout config shape
  build/gemmtune bench --config $3 --shape $4 --layout $2 --dtype $1 --json 2>>$d/bench.log | python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$4', '$1', '$2', '$3', round(b['median_us'],2), 'us', b['disposition'])" | tee -a $d/ab.txt
}
for round in 1 2; do
  for t in _tiles4 _tiles8; do
    bench f16 nt coopmat_f16_bm192_bn128_bk64_sgm4_sgn4_splits1$t 2048x2048x64x12
    bench f16 nt coopmat_f16_bm192_bn128_bk64_sgm4_sgn4_splits1$t 2048x2048x128x32
  done
done
scripts/models-bench.sh --budget 8 --dtypes f16 --shapes-file results/h200/s88/attention.txt --out-dir $d/att \
  > $d/models.log 2>&1
echo "models-bench rc $?" | tee -a $d/gpu.txt
grep -E "^\| attn|^\| off" $d/att/bench.md | tee $d/table.txt
cp $d/ab.txt $d/table.txt $d/gpu.txt $d/att/bench.md $d/att/bench.json $d/att/nvidia-h200.json $d/att/cublas.jsonl $OUT/
