#!/usr/bin/env bash
# Session 2026-12-06 (12), call 1: coopmat's aligning pre-pass (issue 43, the edge row's third attempt; notes). The
# coopmat device tests (tiles on unaligned rows, from the operands and from the planes; the operation cases); each
# edge config with prepass 0 and 1 beside its aligned neighbour, hot, two rounds; a tune of the edge row and of
# 3000x1000x2000 nt (K off 64); cuBLAS on the same shapes. Carry: [".gpu-kit", "build/gemmtune", "build/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s71c1
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 200 build/tests/gpu_tests \
  --gtest_filter='CooperativeMatrix.Tiles*:AllVariants/Operation.*/coopmat_*16_*' > $d/tests.log 2>&1
echo "gpu_tests rc $?" | tee -a $d/gpu.txt
grep -E '^\[  (PASSED|FAILED) |Failure|bound|disposition' $d/tests.log | head -20 | tee $d/tests.txt
bench() {  # config shape layout
  build/gemmtune bench --config $1 --shape $2 --layout $3 --dtype f16 --json 2>>$d/bench.log | python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$2', '$3', '$1', round(b['median_us'],2), 'us', b['disposition'], b.get('passes_us',''))" | tee -a $d/ab.txt
}
for round in 1 2; do
  for p in "" _prepass1; do
    bench coopmat_f16_bm64_bn64_bk64_sgm4_sgn4_splits1$p 777x1234x555 nn
    bench coopmat_f16_bm64_bn128_bk64_sgm4_sgn4_splits1$p 777x1234x555 nn
    bench coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits1$p 777x1234x555 nn
    bench coopmat_f16_bm192_bn128_bk64_sgm4_sgn4_splits1$p 3000x1000x2000 nt
  done
  bench coopmat_f16_bm64_bn64_bk64_sgm2_sgn2_splits1_stages2 768x1280x576 nn
  bench coopmat_f16_bm64_bn64_bk64_sgm4_sgn4_splits1 768x1280x576 nn
done
tune() {  # shape layout
  build/gemmtune --shape $1 --layout $2 --dtype f16 --budget 8 --out $d/tune.json --json 2>>$d/tune.log | python3 -c "
import json,sys
for q in json.load(sys.stdin)['problems']:
  print('tune', '$1', '$2', q['best']['name'], round(q['best']['median_us'],2), 'us', q.get('evaluated'))" | tee -a $d/ab.txt
}
tune 777x1234x555 nn
tune 768x1280x576 nn
tune 3000x1000x2000 nt
python3 .gpu-kit/cublas_anchor.py --shapes 777x1234x555,768x1280x576 --dtypes f16 > $d/cublas.jsonl 2>>$d/bench.log
python3 .gpu-kit/cublas_anchor.py --shapes 3000x1000x2000 --dtypes f16 --layouts nt >> $d/cublas.jsonl 2>>$d/bench.log
cat $d/cublas.jsonl
cp $d/ab.txt $d/tests.txt $d/gpu.txt $d/cublas.jsonl $OUT/
tar czf $OUT/logs.tgz -C $d tests.log bench.log tune.log tune.json 2>/dev/null
