#!/usr/bin/env bash
# Session of 2026-12-05 (4), call 6 (issue 44 step 4, attempt 3 of the rate): bf16x6 with `reuse1` (the sums leave the
# units every 16 k, the high products reuse the corrections' fragments of hi) against the same tiles without, two rounds
# alternating, each pass timed alone; the accuracy test in all four forms; cuBLAS SGEMM (TF32 off) in the same call.
# Carry: [".gpu-kit", "build/gemmtune", "build/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s59c6
mkdir -p $d
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee $d/gpu.txt
t=bf16x6_f32_bm64_bn128_bk32_sgm2_sgn2_splits1_stages1
cases=("4096x4096x4096 nn" "2048x2048x2048 nn" "512x4096x14336 nt")
for round in 1 2; do
  for reuse in "" _reuse1; do
    for c in "${cases[@]}"; do
      set -- $c
      build/gemmtune bench --config ${t}${reuse}_prepass1 --shape $1 --layout $2 --dtype f32 --json 2>>$d/bench.log |
        python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$round', '$1', '$2', '${t}${reuse}_prepass1', round(b['median_us'],2), 'us', b['disposition'], b.get('passes_us', ''))" \
        | tee -a $d/summary.txt
    done
  done
done
python3 .gpu-kit/cublas_anchor.py --shapes 4096x4096x4096,2048x2048x2048 --dtypes f32 --layouts nn | tee -a $d/summary.txt
python3 .gpu-kit/cublas_anchor.py --shapes 512x4096x14336 --dtypes f32 --layouts nt | tee -a $d/summary.txt
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 200 build/tests/gpu_tests --gtest_filter='EmulatedF32.*' > $d/accuracy.txt 2>&1
grep -E "error|OK|FAILED" $d/accuracy.txt | tail -40 >> $d/summary.txt
cp $d/summary.txt $OUT/
tar czf $OUT/call.tgz -C $d .
