#!/usr/bin/env bash
# Session of 2026-12-07 (28), call 1. First s93/call1.sh (issue 43 steps 47 and 48 A/B beside cuBLAS and a
# `--budget 15` tune; rows16.txt, cublas.jsonl, tune.json), then issue 48's decoding: the copy rate, ggml-vulkan's
# q8_0 / q4_0 MUL_MAT cases, a hot `--budget 10` tune of M = 1, 2, 4, 8 (N 4096, K 14336, nt, f32 activations, both
# types) and each winner benched again cold (the targets' share of the copy rate). Binary build/gemmtune-s93: this
# tree's build/gemmtune. Carry [".gpu-kit", "build/gemmtune-s93"]. About 450 s.
set -uo pipefail
start=$(date +%s)
bash results/h200/s93/call1.sh
echo "s93 done at $(( $(date +%s) - start ))s" | tee $OUT/decode.txt
source .gpu-kit/activate.sh
bin=build/gemmtune-s93
timeout 30 $bin peak --json > /tmp/peak.json 2>/dev/null
cat /tmp/peak.json >> $OUT/decode.txt
timeout 60 .gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $OUT/ggml-mmvq.jsonl 2>/dev/null
timeout -s INT 150 $bin tune --shape 1x4096x14336,2x4096x14336,4x4096x14336,8x4096x14336 --layout nt \
  --dtype f32:q8_0,f32:q4_0 --budget 10 --out $OUT/decode-hot.json > /tmp/decode-hot.txt 2>&1
grep -E "evaluated|  best:" /tmp/decode-hot.txt | tee -a $OUT/decode.txt
echo "hot tune done at $(( $(date +%s) - start ))s" | tee -a $OUT/decode.txt
python3 -c "
import json
for e in json.load(open('$OUT/decode-hot.json'))['entries']:
    if e.get('best'): print(e['m'], e['dtype'], e['best']['name'])
" | while read -r m dtype name; do
  for cold in "" --cold; do
    $bin bench --config $name --shape ${m}x4096x14336 --layout nt $cold --json 2>/dev/null | python3 -c "
import json,sys
r=json.load(sys.stdin)['results'][0]
print('$m $dtype' , '${cold:-hot}', r['config'], r['disposition'], round(r.get('median_us') or 0, 2))
" | tee -a $OUT/decode.txt
  done
done
echo "done at $(( $(date +%s) - start ))s" | tee -a $OUT/decode.txt
