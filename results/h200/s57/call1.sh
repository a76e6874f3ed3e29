#!/usr/bin/env bash
# Session of 2026-12-05 (2), call 1 (issue 48 step 5): codes decoded without conversions (qrowdot, the coopmat
# staging) and qrowdot's quarter-block lanes; verification at odd shapes, decoding at M = 1..5, 8 and the prompt
# size of N 4096, K 14336 hot and cold, each decoding winner timed again with the other lanes value, beside
# ggml-vulkan's q8_0 / q4_0 cases and the copy rate, same call.
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s57c1
mkdir -p $d
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee $d/gpu.txt
build/gemmtune peak --json > $d/peak.json 2> $d/peak.log
cp $d/peak.json $OUT/
summary() { python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
for p in d['problems']:
    b=p.get('best') or {}
    print(p['problem'], 'cold' if p.get('cold') else 'hot', 'evaluated', p['evaluated'], 'failed', p['failed'], 'best', b.get('name'), b.get('median_us'), 'us', 'error', b.get('error'), 'bound', b.get('bound'))
" "$1"; }
# Verification at odd shapes: qrowdot (M 3, 16) and the coopmat staging (M 197, 40), both layouts.
build/gemmtune tune --shape 3x1000x1056,16x4095x544,197x200x544x2,40x1000x1056 --layout nt,tt \
  --dtype f16:q8_0,f16:q4_0,f32:q4_0 --budget 18 --out $d/verify.json --json > $d/verify.out 2> $d/verify.log
summary $d/verify.out | tee $d/summary.txt; cp $d/summary.txt $OUT/
build/gemmtune tune --shape 1x4096x14336,2x4096x14336,3x4096x14336,4x4096x14336,5x4096x14336,8x4096x14336 \
  --layout nt --dtype f32:q8_0,f32:q4_0 --budget 16 --out $d/decode.json --json > $d/decode.out 2> $d/decode.log
summary $d/decode.out | tee -a $d/summary.txt; cp $d/summary.txt $OUT/
# Each decoding winner of qrowdot timed again with the other lanes value.
python3 - $d/decode.out > $d/flips.txt <<'PY'
import json, re, subprocess, sys
for p in json.load(open(sys.argv[1]))['problems']:
    name = (p.get('best') or {}).get('name') or ''
    if not name.startswith('qrowdot'):
        continue
    other = name.replace('_lanes4', '') if '_lanes4' in name else re.sub(r'(_rows\d+)', r'\1_lanes4', name)
    for cfg in (name, other):
        r = subprocess.run(['build/gemmtune', 'bench', '--config', cfg, '--shape', f"{p['m']}x{p['n']}x{p['k']}",
                            '--layout', 'nt', '--dtype', p['dtype'], '--json'], capture_output=True, text=True)
        try:
            b = json.loads(r.stdout)['problems'][0]['best']
            print(p['problem'], cfg, round(b['median_us'], 2), 'us')
        except Exception as e:
            print(p['problem'], cfg, 'failed', r.stderr.strip()[-200:])
PY
cat $d/flips.txt | tee -a $d/summary.txt; cp $d/summary.txt $OUT/
.gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $d/ggml.jsonl 2> $d/ggml.log
cat $d/ggml.jsonl | tee -a $d/summary.txt; cp $d/summary.txt $d/ggml.jsonl $OUT/
build/gemmtune tune --shape 512x4096x14336 --layout nt --dtype f16:q4_0,f16:q8_0,f16 --budget 45 \
  --out $d/prompt.json --json > $d/prompt.out 2> $d/prompt.log
summary $d/prompt.out | tee -a $d/summary.txt; cp $d/summary.txt $OUT/
build/gemmtune tune --shape 1x4096x14336,2x4096x14336,3x4096x14336,4x4096x14336,5x4096x14336,8x4096x14336 \
  --layout nt --dtype f32:q8_0,f32:q4_0 --budget 10 --cold --out $d/decode-cold.json --json \
  > $d/decode-cold.out 2> $d/decode-cold.log
summary $d/decode-cold.out | tee -a $d/summary.txt; cp $d/summary.txt $OUT/
tar czf $OUT/call.tgz -C $d .
