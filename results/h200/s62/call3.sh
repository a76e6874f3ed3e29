#!/usr/bin/env bash
# Session of 2026-12-05 (6), call 4 (issue 43 step 13): the first screen's warm-up after the device check's image
# (clocks kept up) and finalists from other families, on three rows of the models suite at --budget 8.
# Carry: [".gpu-kit", "build/gemmtune"].
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/log.txt
build/gemmtune --shape 2048x14336x4096,2048x2048x128x32 --layout nt --dtype f16 --budget 8 --out $OUT/t.json 2>&1 |
  grep -E "time:|evaluated|baseline" | tee -a $OUT/log.txt
build/gemmtune --shape 16x4096x4096 --layout tt --dtype f16 --budget 8 --out $OUT/t.json 2>&1 |
  grep -E "time:|evaluated|best|winner" | tee -a $OUT/log.txt
python3 - $OUT/t.json.journal.jsonl <<'PY' | tee -a $OUT/log.txt
import json, sys
for l in open(sys.argv[1]):
    j = json.loads(l)
    if j['phase'] in ('screen', 'final'):
        p = json.loads(j['problem'])
        print(p['m'], p['n'], p['k'], p['batch'], j['phase'], j['config'], round(j['median_us'], 2),
              {k: round(v) for k, v in j['cost_ms'].items()})
PY
