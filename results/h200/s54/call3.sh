#!/usr/bin/env bash
# Session of 2026-12-04 (2), call 3 (issue 43 step 4): edge tiles on the fast staging path. First every config of
# edges.json verified on the host (--host-check) on shapes with edges in M and N, every layout, f16 and i8; the GPU
# operation tests of coopmat; then the models suite in f16 at --budget 8 a shape beside cuBLAS.
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s54c3
mkdir -p $d
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee $d/gpu.txt
for dtype in f16 i8; do
  build-s4/gemmtune --shape 1000x1040x1056,197x200x544x2,999x1001x1056 --layout nn,nt,tn,tt --dtype $dtype \
    --variants coopmat --space results/h200/s54/edges.json --strategy screen --budget 20 --host-check --samples 3 \
    --json --out $d/edges-$dtype.json > $d/edges-$dtype.summary.json 2> $d/edges-$dtype.log
  python3 -c '
import json,sys
for p in json.load(open(sys.argv[1]))["problems"]:
    print(p["problem"], "evaluated", p.get("evaluated"), "failed", p.get("failed"), (p.get("best") or {}).get("name"))
' $d/edges-$dtype.summary.json | tee -a $d/edges.txt
done
cp $d/edges.txt $OUT/
build-s4/gpu_tests --gtest_filter='*coopmat*:*Coopmat*:*CooperativeMatrix*' > $d/gpu_tests.log 2>&1
tail -3 $d/gpu_tests.log
GEMMTUNE_BIN=$PWD/build-s4/gemmtune scripts/models-bench.sh --budget 8 --dtypes "${DTYPES:-f16}" --out-dir $d/models > $d/models.log 2>&1
cp $d/models/bench.md $d/models/bench.json $d/models/cublas.jsonl $d/models/nvidia-h200.json $OUT/
tail -4 $d/models.log
tar czf $OUT/call.tgz -C $d .
