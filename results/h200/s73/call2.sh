#!/usr/bin/env bash
# Session 2026-12-06 (14), call 2 (issue 48 step 23b; results/h200/notes.md): the quantized device tests, A/B of
# d9ddcf8's binary (build/gemmtune-base), d55d4fc's (build/gemmtune-d55) and this tree's at 512x4096x14336 nt (hot),
# then the M = 512 tune of f16, f16:q4_0, f16:q8_0 and f32:q4_0 beside ggml-vulkan's q4_0, q8_0 and f16 cases.
# Carry: [".gpu-kit", "build/gemmtune", "build/gemmtune-base", "build/gemmtune-d55", "build/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s73c2
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 200 build/tests/gpu_tests --gtest_filter='*Quantized*' > $d/tests.log 2>&1
echo "gpu_tests rc $?" | tee -a $d/gpu.txt
grep -E "FAILED|PASSED|tests ran" $d/tests.log | tee -a $d/gpu.txt
bench() {  # binary config dtype
  "$1" bench --config $2 --shape 512x4096x14336 --layout nt --dtype $3 --json 2>>$d/bench.log |
    python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$3', '$(basename $1)', '$2', round(b['median_us'],2), 'us', b['disposition'])" | tee -a $d/ab.txt
}
for round in 1 2; do
  echo "round $round" >> $d/ab.txt
  bench build/gemmtune coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits2 f16
  for bin in build/gemmtune-base build/gemmtune-d55 build/gemmtune; do
    bench $bin coopmat_f32q4_bm64_bn128_bk64_sgm2_sgn4_splits1 f32:q4_0
    bench $bin coopmat_f32q4_bm128_bn128_bk64_sgm2_sgn2_splits2 f32:q4_0
    bench $bin coopmat_f32q4_bm64_bn128_bk64_sgm2_sgn4_splits1_prepass1 f32:q4_0
    bench $bin coopmat_f16q4_bm128_bn128_bk64_sgm2_sgn4_splits1_prepass1 f16:q4_0
  done
  bench build/gemmtune coopmat_f16q4_bm128_bn128_bk64_sgm2_sgn2_splits2 f16:q4_0
done
build/gemmtune tune --shape 512x4096x14336 --layout nt --dtype f16,f16:q4_0,f16:q8_0,f32:q4_0 --budget 30 \
  --out $d/prompt.json --json > $d/prompt.out 2> $d/prompt.log
python3 -c "
import json,sys
for p in json.load(open(sys.argv[1]))['problems']:
    b=p.get('best') or {}
    print(p['problem'], 'evaluated', p['evaluated'], b.get('name'), b.get('median_us'), 'us')
" $d/prompt.out | tee $d/summary.txt
python3 - $d/prompt.json.journal.jsonl <<'PY' | tee -a $d/summary.txt
import json, sys
best = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r['phase'] == 'begin' or r['disposition'] != 'passed': continue
    key = (json.loads(r['problem'])['dtype'], 'prepass1' in r['config'])
    if key not in best or r['median_us'] < best[key][0]: best[key] = (round(r['median_us'], 2), r['config'])
for k, v in sorted(best.items()): print('best', k, v)
PY
.gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0|f16)' > $d/ggml.jsonl 2> $d/ggml.log
grep '"M": 512' $d/ggml.jsonl | tee -a $d/summary.txt
cp $d/ab.txt $d/summary.txt $d/gpu.txt $d/ggml.jsonl $OUT/
tail -30 $d/tests.log > $OUT/tests-tail.txt
tar czf $OUT/call.tgz -C $d prompt.json prompt.json.journal.jsonl prompt.log bench.log
