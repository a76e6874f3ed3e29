#!/usr/bin/env bash
# Session 2026-12-06 (13), call 6: rowmma's whole space screened at 16x4096x4096 nt and tt and 8x4096x4096 tn (the
# journals say whether a config the tune did not reach streams B faster, or the kernel caps it), beside rowdot's M = 1
# rate on the same B. Carry: [".gpu-kit", "build/gemmtune"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s72c6
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
for case in 16x4096x4096:nt 16x4096x4096:tt 8x4096x4096:tn; do
  shape=${case%:*}; layout=${case#*:}
  build/gemmtune tune --shape $shape --dtype f16 --layout $layout --budget 45 --strategy screen --variants rowmma \
    --out $d/$layout.json --json > /dev/null 2>>$d/tune.log
  python3 - $d/$layout.json.journal.jsonl $shape $layout <<'PY' | tee -a $d/screens.txt
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
best = {}
for r in rows:
    if r.get('disposition') == 'passed' and r.get('median_us', 0) > 0:
        best[r['config']] = min(best.get(r['config'], 1e9), r['median_us'])
ranked = sorted(best.items(), key=lambda x: x[1])
print(sys.argv[2], sys.argv[3], len(best), 'configs screened')
for c, t in ranked[:12]:
    print('  ', round(t, 2), c)
PY
done
cp $d/screens.txt $d/gpu.txt $OUT/
tail -2 $d/tune.log > $OUT/tune-tail.txt
