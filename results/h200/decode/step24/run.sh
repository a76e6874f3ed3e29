#!/usr/bin/env bash
# Issue 18, probe 24 and issue 19 on the H200, one call:
# 1. Deterministic mode's order check on this driver: the order-model and planted-fault GPU tests, then a
#    deterministic tune of every float family on odd shapes, counting candidates refused for their summation order.
# 2. Where 16-bit decoding at M = 4..8 spends its time: every rowdot (and rowmma) config without splits on
#    B of 33.5 MB (N = 4096, K = 4096 in 16 bits, K = 2048 in f32: L2-resident when hot) against the same kernels
#    on K = 14336 (117 MB from DRAM), beside cuBLAS on the same shapes.
# Carry .gpu-kit, build/gemmtune and build/tests/gpu_tests:
#   source .gpu-kit/activate.sh && results/h200/decode/step24/run.sh OUT_DIR
set -uo pipefail
out=${1:?usage: run.sh OUT_DIR}
bin=./build/gemmtune
here=results/h200/decode
mkdir -p "$out"
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 240 ./build/tests/gpu_tests --gtest_filter='OrderModel.*:PlantedFaults.*' > "$out/order-tests.log" 2>&1
echo "order tests exit $?" >> "$out/order-tests.log"
grep -E "^\[  (PASSED|FAILED) |OK \]|FAILED \]|exit" "$out/order-tests.log" | tail -12
timeout 150 $bin --shape 5x77x1003,100x257x1003,8x4096x3000 --layout nn,nt,tn,tt --dtype f32,f16,bf16 --mode deterministic \
  --variants tiled,splitk,naive,fewrows,rowdot --budget 4 --out "$out/det.json" > "$out/det.log" 2>&1
echo "deterministic tune exit $?"
python3 - "$out/det.json.journal.jsonl" <<'PY'
import json, sys, collections
count = collections.Counter()
for line in open(sys.argv[1]):
    r = json.loads(line)
    if not r["config"]: continue
    order = "summation order" in (r.get("detail") or "")
    count[(r["config"].split("_")[0], r["disposition"], order)] += 1
for k, v in sorted(count.items()): print(*k, v)
PY
timeout 60 python3 .gpu-kit/cublas_anchor.py --shapes 1x4096x4096,4x4096x4096,8x4096x4096,8x4096x2048,4x4096x14336,8x4096x14336 \
  --dtypes f16,f32 --layouts nt > "$out/cublas.jsonl" 2> "$out/cublas.err"
cat "$out/cublas.jsonl"
$bin peak --out "$out/probe.json" > "$out/probe.log" 2>&1
timeout 150 $bin --shape 1x4096x4096,4x4096x4096,8x4096x4096,4x4096x14336,8x4096x14336 --layout nt --dtype f16 --variants rowdot,rowmma \
  --space $here/step24/space.json --strategy exhaustive --samples 5 --screen-warmup 0.05 --budget 25 --out "$out/probe.json" >> "$out/probe.log" 2>&1
timeout 60 $bin --shape 8x4096x2048 --layout nt --dtype f32 --variants rowdot \
  --space $here/step24/space.json --strategy exhaustive --samples 5 --screen-warmup 0.05 --budget 25 --out "$out/probe.json" >> "$out/probe.log" 2>&1
python3 $here/list-configs.py "$out/probe.json.journal.jsonl" > "$out/configs.txt"
python3 $here/list-configs.py --registers "$out/probe.json.journal.jsonl" > "$out/registers.txt"
for s in 1x4096x4096 4x4096x4096 8x4096x4096 4x4096x14336 8x4096x14336 8x4096x2048; do grep "^$s " "$out/configs.txt" | head -4; done
tar czf "$out/logs.tgz" -C "$out" order-tests.log det.log det.json.journal.jsonl probe.log probe.json.journal.jsonl cublas.err
rm -f "$out"/order-tests.log "$out"/det.log "$out"/det.json.journal.jsonl "$out"/probe.log "$out"/probe.json.journal.jsonl "$out"/cublas.err
