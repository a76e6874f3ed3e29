#!/usr/bin/env bash
# Session 2026-12-05 (9), call 4: issue 48 step 20 (what rounding B to f16 left multiplied too, so B is exact;
# after step 19's raw words and f32 as two f16 parts): qrowmma's device tests, then the decoding tune of f32:q4_0 and f32:q8_0 at M = 1, 2, 4, 8 (`--budget 16` a
# shape for both) beside ggml-vulkan, hot. Carry: [".gpu-kit", "build/gemmtune", "build/tests/gpu_tests"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s67c4
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 120 build/tests/gpu_tests \
  --gtest_filter='EveryTypeAndLayout/Quantized.DecodingRowsVerifyOnTheMatrix*:QuantizedGemm.OtherFamilies*' \
  > $d/tests.log 2>&1
echo "gpu_tests rc $?" | tee -a $d/gpu.txt
grep -E '^\[  (PASSED|FAILED) |error [0-9.e-]+ > bound' $d/tests.log | head -20 | tee $d/tests.txt
build/gemmtune tune --shape 1x4096x14336,2x4096x14336,4x4096x14336,8x4096x14336 --layout nt \
  --dtype f32:q4_0,f32:q8_0 --budget 16 --out $d/decode.json --json > $d/decode.out 2> $d/decode.log
python3 - $d/decode.json.journal.jsonl <<'PY' | tee -a $d/summary.txt
import json, sys
best = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    c = r.get("config")
    if not isinstance(c, str) or r.get("disposition") != "passed":
        continue
    p = json.loads(r["problem"]) if isinstance(r["problem"], str) else r["problem"]
    key = (p["m"], p["dtype"], c.split("_")[0])
    if key not in best or r["median_us"] < best[key][0]:
        best[key] = (round(r["median_us"], 2), c)
for k in sorted(best):
    print("best", *k, *best[k])
PY
timeout 120 .gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $d/ggml.jsonl 2> $d/ggml.log
grep -E '"M": (1|2|4|8),' $d/ggml.jsonl | tee -a $d/summary.txt
cp $d/summary.txt $d/tests.txt $d/gpu.txt $OUT/
tar czf $OUT/call.tgz -C $d .
