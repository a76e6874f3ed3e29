#!/usr/bin/env bash
# Session 2026-12-06 (14), call 4 (issue 48; results/h200/notes.md): the M = 512 tune of the kept tree (step 23:
# coopmat's staging build decodes B's words after the products) for f16, f16:q4_0, f16:q8_0, f32:q4_0 and f32:q8_0,
# hot, beside ggml-vulkan's own cases (q8_0, q4_0, f16; every M it runs). Carry: [".gpu-kit", "build/gemmtune"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s73c4
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
build/gemmtune tune --shape 512x4096x14336 --layout nt --dtype f16,f16:q4_0,f16:q8_0,f32:q4_0,f32:q8_0 --budget 30 \
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
cp $d/summary.txt $d/gpu.txt $d/ggml.jsonl $OUT/
tar czf $OUT/call.tgz -C $d prompt.json prompt.json.journal.jsonl prompt.log
