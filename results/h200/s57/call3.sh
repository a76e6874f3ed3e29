#!/usr/bin/env bash
# Session of 2026-12-05 (2), call 3 (issue 48 step 6): qrowdot's quarter-block loop stepping by adds; decoding at
# M = 1..5, 8 of N 4096, K 14336 hot, each winner timed again cold (bench --cold),
# beside ggml-vulkan's q8_0 / q4_0 cases, same call; step 7's f32 activations on coopmat at M = 512. Then (issue 44) the accuracy test of bf16x6 against native f32
# on uniform and wide-range inputs and the quantized GPU tests (gpu_tests without the validation layer, which this
# machine lacks), with cuBLAS SGEMM and TF32's errors on the same input sets.
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s57c3
mkdir -p $d
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee $d/gpu.txt
summary() { python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
for p in d['problems']:
    b=p.get('best') or {}
    print(p['problem'], 'cold' if p.get('cold') else 'hot', 'evaluated', p['evaluated'], 'failed', p['failed'], 'best', b.get('name'), b.get('median_us'), 'us', 'error', b.get('error'), 'bound', b.get('bound'))
" "$1"; }
build/gemmtune tune --shape 1x4096x14336,2x4096x14336,3x4096x14336,4x4096x14336,5x4096x14336,8x4096x14336 \
  --layout nt --dtype f32:q8_0,f32:q4_0 --budget 12 --out $d/decode.json --json > $d/decode.out 2> $d/decode.log
summary $d/decode.out | tee $d/summary.txt; cp $d/summary.txt $OUT/
# Each winner timed cold.
python3 - $d/decode.out > $d/benches.txt <<'PY'
import json, subprocess, sys
for p in json.load(open(sys.argv[1]))['problems']:
    name = (p.get('best') or {}).get('name') or ''
    if not name.startswith('qrowdot'):
        continue
    for cfg, cold in ((name, True),):
        cmd = ['build/gemmtune', 'bench', '--config', cfg, '--shape', f"{p['m']}x{p['n']}x{p['k']}", '--layout', 'nt',
               '--dtype', p['dtype'], '--json'] + (['--cold'] if cold else [])
        r = subprocess.run(cmd, capture_output=True, text=True)
        try:
            b = json.loads(r.stdout)['results'][0]
            print(p['problem'], 'cold' if cold else 'hot', cfg, round(b['median_us'], 2), 'us', b['disposition'])
        except Exception:
            print(p['problem'], 'cold' if cold else 'hot', cfg, 'failed', r.stderr.strip()[-300:])
PY
cat $d/benches.txt | tee -a $d/summary.txt; cp $d/summary.txt $OUT/
.gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $d/ggml.jsonl 2> $d/ggml.log
cat $d/ggml.jsonl | tee -a $d/summary.txt; cp $d/summary.txt $d/ggml.jsonl $OUT/
# Step 7: f32 activations on the matrix units at the prompt size, beside f16 activations.
build/gemmtune tune --shape 512x4096x14336 --layout nt --dtype f32:q4_0,f16:q4_0 --budget 40 \
  --out $d/prompt.json --json > $d/prompt.out 2> $d/prompt.log
summary $d/prompt.out | tee -a $d/summary.txt; cp $d/summary.txt $OUT/
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 build/tests/gpu_tests \
  --gtest_filter='EmulatedF32*:QuantizedGemm*:EveryTypeAndLayout/Quantized.Prompt*' > $d/gpu_tests.txt 2>&1
tail -3 $d/gpu_tests.txt
cp $d/gpu_tests.txt $OUT/
python3 scripts/cublas_tf32_anchor.py --shapes 128x96x1024,197x200x544,64x160x4096,4096x4096x4096 --layouts nn \
  > $d/cublas_accuracy.jsonl 2> $d/cublas_accuracy.log
cat $d/cublas_accuracy.jsonl; cp $d/cublas_accuracy.jsonl $OUT/
tar czf $OUT/call.tgz -C $d .
