#!/usr/bin/env bash
# Session 2026-12-06 (13), call 7: rowmma loads op(A) stored K x M by its rows (A_KXM_ROWS). The RowMma device tests;
# A/B of the decode rows' configs, old binary (gemmtune-base) against new, two rounds; a short tune of m16-tt and
# m8-tn with the new binary beside cuBLAS.
# Carry: [".gpu-kit", "build/gemmtune", "build/gemmtune-base", "build/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s72c7
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 200 build/tests/gpu_tests --gtest_filter='RowMma.*' > $d/tests.log 2>&1
echo "gpu_tests rc $?" | tee -a $d/gpu.txt
grep -E '^\[  (PASSED|FAILED|SKIPPED) |Failure|^\[       OK' $d/tests.log | head -20 | tee $d/tests.txt
grep -B2 -A6 Failure $d/tests.log | head -40 > $d/failures.txt
bench() {  # binary config shape layout
  $1 bench --config $2 --shape $3 --layout $4 --dtype f16 --json 2>>$d/bench.log | python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$(basename $1)', '$3', '$4', '$2', round(b['median_us'],2), 'us', b['disposition'])" | tee -a $d/ab.txt
}
for round in 1 2; do
  for bin in build/gemmtune-base build/gemmtune; do
    bench $bin rowmma_f16_sgk16_frags2_unroll2_wide0_regs1 16x4096x4096 tt
    bench $bin rowmma_f16_sgk8_frags2_unroll4_wide0_regs1 16x4096x4096 tt
    bench $bin rowmma_f16_sgk8_frags2_unroll4_wide0_regs1 8x4096x4096 tn
    bench $bin rowmma_f16_sgk16_frags2_unroll2_wide0_regs1 8x4096x4096 tn
    bench $bin rowmma_f16_sgk16_frags2_unroll2_wide0_regs1 16x4096x14336 tt
    bench $bin rowmma_f16_sgk8_frags2_unroll4_wide0_regs1 16x4096x4096 nt
  done
done
build/gemmtune tune --shape 16x4096x4096 --dtype f16 --layout tt --budget 8 --json > $d/t1.json 2>>$d/tune.log
build/gemmtune tune --shape 8x4096x4096 --dtype f16 --layout tn --budget 8 --json > $d/t2.json 2>>$d/tune.log
for f in $d/t1.json $d/t2.json; do python3 -c "
import json
for p in json.load(open('$f'))['problems']:
    print('tuned', p['problem'], p['best']['name'], round(p['best']['median_us'],2))" | tee -a $d/ab.txt; done
python3 .gpu-kit/cublas_anchor.py --shapes 16x4096x4096 --dtypes f16 --layouts tt > $d/cublas.jsonl 2>>$d/tune.log
python3 .gpu-kit/cublas_anchor.py --shapes 8x4096x4096 --dtypes f16 --layouts tn >> $d/cublas.jsonl 2>>$d/tune.log
cat $d/cublas.jsonl
cp $d/ab.txt $d/tests.txt $d/failures.txt $d/gpu.txt $d/cublas.jsonl $OUT/
