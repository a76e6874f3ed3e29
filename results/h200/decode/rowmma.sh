#!/usr/bin/env bash
# Issue 18, steps 5-6: the row-mma family on the H200, one call. Its GPU tests (every config at the edges, every M
# and layout it serves, the operation suite); every rowmma config at 8x4096x14336 and 16x4096x14336 f16 (nt);
# rowdot and rowmma screened on the 16-bit decode shapes beside cuBLAS and ggml-vulkan; then (step 4 of the
# notes) 1x51865x768 in all four layouts and three types, hot and cold, beside cuBLAS. All in the same call.
# Carry .gpu-kit, build/gemmtune and build/tests/gpu_tests:
#   source .gpu-kit/activate.sh && results/h200/decode/rowmma.sh "$OUT/rowmma"
set -uo pipefail
out=${1:?usage: rowmma.sh OUT_DIR}
bin=./build/gemmtune
mkdir -p "$out"
# No validation layer on that machine (see tests/gpu/lavapipe_env.cpp); never set in CI.
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 120 ./build/tests/gpu_tests --gtest_filter='RowMma.*:*Operation*rowmma*f16*' > "$out/rowmma-tests.log" 2>&1
echo "rowmma tests exit $?" >> "$out/rowmma-tests.log"
tail -3 "$out/rowmma-tests.log"
shapes=1x4096x14336,2x4096x14336,4x4096x14336,8x4096x14336,16x4096x14336
timeout 90 .gpu-kit/ggml_anchor.sh > "$out/ggml.jsonl" 2> "$out/ggml.err"
timeout 60 python3 .gpu-kit/cublas_anchor.py --shapes "$shapes" --dtypes f16,bf16 --layouts nt > "$out/cublas.jsonl"
# Every rowmma config at M = 8 and 16 (f16), then both row families screened on every shape and 16-bit type.
timeout 100 $bin --shape 8x4096x14336,16x4096x14336 --layout nt --variants rowmma --strategy exhaustive --dtype f16 --samples 5 \
  --screen-warmup 0.05 --budget 45 --out "$out/exhaustive.json" > "$out/tune.log" 2>&1
timeout 110 $bin --shape "$shapes" --layout nt --variants rowdot,rowmma --dtype f16,bf16 --budget 14 \
  --out "$out/table.json" >> "$out/tune.log" 2>&1
python3 scripts/ratio.py "$out/table.json" "$out/cublas.jsonl" --ggml "$out/ggml.jsonl" --json "$out/bench.json" --markdown "$out/bench.md"
# Every config's last time from the journal, fastest first.
python3 - "$out/exhaustive.json.journal.jsonl" > "$out/exhaustive.txt" <<'PY'
import json, sys
last = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["config"] and r["median_us"] > 0:
        m = json.loads(r["problem"])["m"]
        last[(m, r["config"])] = (r["median_us"], r["phase"], r["disposition"])
for (m, name), (us, phase, disp) in sorted(last.items(), key=lambda kv: (kv[0][0], kv[1][0])):
    print(f"M={m:<3d} {name:40s} {us:9.2f} us  {phase:8s} {disp}")
PY
cat "$out/bench.md"; grep -A6 "M=8 " "$out/exhaustive.txt" | head -8; grep -A6 "M=16 " "$out/exhaustive.txt" | head -8
# Step 4: M = 1 in every layout (fewrows for nn and tn, rowdot for nt and tt), hot and cold.
lshape=1x51865x768
timeout 60 python3 .gpu-kit/cublas_anchor.py --shapes $lshape --dtypes f32,f16,bf16 --layouts nn,nt,tn,tt > "$out/cublas-layouts.jsonl"
timeout 60 python3 .gpu-kit/cublas_anchor.py --shapes $lshape --dtypes f32,f16,bf16 --layouts nn,nt,tn,tt --cold >> "$out/cublas-layouts.jsonl"
$bin peak --out "$out/layouts.json" > "$out/layouts.log" 2>&1
timeout 60 $bin --shape $lshape --layout nn,nt,tn,tt --dtype f32,f16,bf16 --budget 40 --out "$out/layouts.json" >> "$out/layouts.log" 2>&1
timeout 50 $bin --shape $lshape --layout nn,nt,tn,tt --dtype f32,f16,bf16 --budget 30 --cold --out "$out/layouts.json" >> "$out/layouts.log" 2>&1
python3 scripts/ratio.py "$out/layouts.json" "$out/cublas-layouts.jsonl" --json "$out/bench-layouts.json" --markdown "$out/bench-layouts.md"
cat "$out/bench-layouts.md"
