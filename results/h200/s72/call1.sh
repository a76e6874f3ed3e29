#!/usr/bin/env bash
# Session 2026-12-06 (13), call 1: coopmat's one-pass split-k finish (onepass1). The device tests; each split config
# of the count (s71/call6.sh) with onepass0 and onepass1, two rounds, passes alone; unsplit configs on the old binary
# (gemmtune-base) against the new one; tunes of off-suite shapes, old against new, with cuBLAS in the same call.
# Carry: [".gpu-kit", "build/gemmtune", "build/gemmtune-base", "build/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s72c1
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 240 build/tests/gpu_tests \
  --gtest_filter='CooperativeMatrix.*' > $d/tests.log 2>&1
echo "gpu_tests rc $?" | tee -a $d/gpu.txt
grep -E '^\[  (PASSED|FAILED|SKIPPED) |Failure|^\[       OK' $d/tests.log | head -20 | tee $d/tests.txt
bench() {  # binary config shape layout
  $1 bench --config $2 --shape $3 --layout $4 --dtype f16 --json 2>>$d/bench.log | python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$(basename $1)', '$3', '$4', '$2', round(b['median_us'],2), 'us', b['disposition'], b.get('passes_us',''))" \
    | tee -a $d/ab.txt
}
new=build/gemmtune
old=build/gemmtune-base
for round in 1 2; do
  for one in 0 1; do
    bench $new coopmat_f16_bm64_bn96_bk64_sgm4_sgn2_splits4_onepass$one 197x768x768 nt
    bench $new coopmat_f16_bm64_bn96_bk64_sgm2_sgn2_splits8_onepass$one 197x768x3072 nt
    bench $new coopmat_f16_bm128_bn128_bk64_sgm2_sgn4_splits4_onepass$one 512x1024x4096 nt
    bench $new coopmat_f16_bm192_bn96_bk64_sgm2_sgn2_splits4_onepass$one 1500x768x3072 nt
    bench $new coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits2_onepass$one 512x4096x14336 nt
    bench $new coopmat_f16_bm64_bn128_bk64_sgm2_sgn2_splits8_onepass$one 16x4096x4096 tt
    bench $new coopmat_f16_bm64_bn64_bk64_sgm2_sgn2_splits4_onepass$one 300x1000x4000 nn
  done
done
for round in 1 2; do
  for bin in $old $new; do
    bench $bin coopmat_f16_bm128_bn128_bk64_sgm2_sgn2 4096x4096x4096 nn
    bench $bin coopmat_f16_bm128_bn192_bk64_sgm4_sgn4 1024x3072x1024 nn
    bench $bin coopmat_f16_bm64_bn128_bk64_sgm4_sgn4_prepass1 777x1234x555 nn
    bench $bin coopmat_f16_bm64_bn96_bk64_sgm4_sgn2_splits4 197x768x768 nt
  done
done
shapes=300x1024x4096,96x2048x8192,640x768x2304,1000x512x6000,200x3000x1000
for bin in $old $new; do
  $bin tune --shape $shapes --dtype f16 --layout nt --budget 5 --json --out $d/$(basename $bin).json \
    2>>$d/tune.log > $d/tune-$(basename $bin).json
  python3 -c "
import json
for p in json.load(open('$d/tune-$(basename $bin).json'))['problems']:
    b=p['best']; print('$(basename $bin)', p['problem'], b['name'], round(b['median_us'],2))" \
    | tee -a $d/tunes.txt
done
python3 .gpu-kit/cublas_anchor.py --shapes $shapes --dtypes f16 --layouts nt > $d/cublas.jsonl 2>>$d/tune.log
cat $d/cublas.jsonl
cp $d/ab.txt $d/tests.txt $d/gpu.txt $d/tunes.txt $d/cublas.jsonl $OUT/
tail -5 $d/tune.log > $OUT/tune-tail.txt
