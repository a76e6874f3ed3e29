#!/usr/bin/env bash
# Session 2026-12-06 (14), call 6 (issue 48 step 26 kept: qrowdot decodes in f16 pairs; results/h200/notes.md): the
# quantized device tests, the decoding tune (f32 activations as ggml takes them, M = 1, 2, 4, 8, hot) beside
# ggml-vulkan's own cases, each winner rerun cold, and the copy rate. Carry: [".gpu-kit", "build/gemmtune",
# "build/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s73c6
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 150 build/tests/gpu_tests --gtest_filter='*Quantized*' > $d/tests.log 2>&1
echo "gpu_tests rc $?" | tee -a $d/gpu.txt
grep -E "FAILED|PASSED|tests ran" $d/tests.log | tee -a $d/gpu.txt
build/gemmtune tune --shape 1x4096x14336,2x4096x14336,4x4096x14336,8x4096x14336 --layout nt \
  --dtype f32:q4_0,f32:q8_0 --budget 12 --out $d/decode.json --json > $d/decode.out 2> $d/decode.log
python3 -c "
import json,sys
for p in json.load(open(sys.argv[1]))['problems']:
    b=p.get('best') or {}
    print(p['m'], p['dtype'], b.get('name'), round(b.get('median_us') or 0, 2))
" $d/decode.out > $d/winners.txt
while read m dt name us; do
  cold=$(build/gemmtune bench --config $name --shape ${m}x4096x14336 --layout nt --dtype $dt --cold --json 2>>$d/bench.log |
    python3 -c "import json,sys; print(round(json.load(sys.stdin)['results'][0]['median_us'],2))")
  echo "M=$m $dt $name hot $us cold $cold" | tee -a $d/summary.txt
done < $d/winners.txt
build/gemmtune peak --json > $d/peak.json 2>>$d/bench.log
.gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $d/ggml.jsonl 2> $d/ggml.log
grep -v '"M": 512' $d/ggml.jsonl | tee -a $d/summary.txt
cp $d/summary.txt $d/gpu.txt $d/peak.json $OUT/
tail -20 $d/tests.log > $OUT/tests-tail.txt
tar czf $OUT/call.tgz -C $d decode.json decode.json.journal.jsonl decode.log decode.out
