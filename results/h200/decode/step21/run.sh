#!/usr/bin/env bash
# Issue 18 step 21, one H200 call: every rowdot config of step21/space.json (STAGES 1 and 2) at 4x4096x14336 and
# 8x4096x14336 f16 nt beside cuBLAS, with the driver's register counts.
# Carry .gpu-kit and build/gemmtune: source .gpu-kit/activate.sh && results/h200/decode/step21/run.sh OUT_DIR
set -uo pipefail
out=${1:?usage: run.sh OUT_DIR}
bin=./build/gemmtune
mkdir -p "$out"
timeout 60 python3 .gpu-kit/cublas_anchor.py --shapes 4x4096x14336,8x4096x14336 --dtypes f16 --layouts nt > "$out/cublas.jsonl"
timeout 240 $bin --shape 4x4096x14336,8x4096x14336 --layout nt --variants rowdot --strategy exhaustive --dtype f16 \
  --space results/h200/decode/step21/space.json --samples 5 --screen-warmup 0.05 --budget 100 --out "$out/table.json" > "$out/tune.log" 2>&1
python3 scripts/ratio.py "$out/table.json" "$out/cublas.jsonl" --json "$out/bench.json" --markdown "$out/bench.md"
python3 results/h200/decode/list-configs.py "$out/table.json.journal.jsonl" > "$out/configs.txt"
python3 - "$out/table.json.journal.jsonl" <<'PY' > "$out/registers.txt"
import json, sys
regs = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("pipeline_statistics") and r["config"]:
        regs[(json.loads(r["problem"])["m"], r["config"])] = r["pipeline_statistics"].get("Register Count")
for (m, name), count in sorted(regs.items()): print(f"M={m:<3} {name:50s} {count}")
PY
cat "$out/bench.md"
for s in 4x4096x14336 8x4096x14336; do grep "^$s " "$out/configs.txt" | head -8; done
