#!/usr/bin/env bash
# Issue 21, one H200 call (2026-12-02: call 4 and its warm follow-up): the integer kernel with the interior staging
# of step 5 (i8 nt 4096^3 exhaustively over 128x128 tiles, each config checked bit for bit); mixed interior and edge
# tiles verified (1000x1040x1056: aligned rows, edge tiles in M and N; f16 and i8, every layout, a small space); the
# integer tests; the 16-bit rows tuned again with the screening order of step 5; cuBLAS in the same call.
# Carry .gpu-kit, build/gemmtune, build-test/tests/gpu_tests:
#   source .gpu-kit/activate.sh && results/h200/coopmat/run.sh $OUT
set -uo pipefail
out=${1:?usage: run.sh OUT_DIR}
bin=${GEMMTUNE:-./build/gemmtune}
mkdir -p "$out/work"
w=$out/work
timeout 60 python3 scripts/cublas_int8_anchor.py --shapes 4096x4096x4096,1024x768x3072 --layouts nt > "$w/cublas.jsonl"
timeout 90 python3 .gpu-kit/cublas_anchor.py --dtypes f16,bf16 --layouts nn --shapes 4096x4096x4096,2048x2048x2048 \
  >> "$w/cublas.jsonl"
timeout 60 python3 .gpu-kit/cublas_anchor.py --dtypes f16,bf16 --layouts nt --shapes 512x4096x14336 >> "$w/cublas.jsonl"
echo '{"space_version": 1, "variants": {"coopmat": {"bm": [128], "bn": [128], "bk": [32, 64], "sgm": [2, 4],
  "sgn": [2, 4], "splits": [1], "stages": [1, 2]}}}' > "$w/space.json"
timeout 100 "$bin" --shape 4096x4096x4096 --dtype i8 --layout nt --variants coopmat --space "$w/space.json" \
  --strategy exhaustive --samples 3 --budget 90 --out "$w/i8.json" > "$w/i8.log" 2>&1
echo "i8 sweep exit $?"
python3 results/h200/f32/configs.py "$w/i8.json.journal.jsonl" > "$out/i8-sweep.txt"; head -6 "$out/i8-sweep.txt"
echo '{"space_version": 1, "variants": {"coopmat": {"bm": [128], "bn": [128], "bk": [32, 64], "sgm": [2],
  "sgn": [2, 4], "splits": [1, 2], "stages": [1, 2]}}}' > "$w/mixed.json"
timeout 150 "$bin" --shape 1000x1040x1056 --dtype f16,i8 --layout nn,nt,tn,tt --variants coopmat \
  --space "$w/mixed.json" --strategy exhaustive --samples 3 --warmup 1 --out "$w/mixed.json.out" > "$w/mixed.log" 2>&1
echo "mixed tiles exit $?"
python3 - "$w/mixed.json.out.journal.jsonl" <<'PY' | tee "$out/mixed.txt"
import json, sys, collections
d = collections.Counter()
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("config", "").startswith("coopmat") and r.get("disposition"): d[r["disposition"]] += 1
print("coopmat configs by disposition over the mixed-tile problems:", dict(d))
PY
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 90 build-test/tests/gpu_tests \
  --gtest_filter='IntegerShapes.*:IntegerGemm.*' \
  > "$out/integer-tests.txt" 2>&1
echo "integer tests exit $?"; grep -E "^\[  (PASSED|FAILED) " "$out/integer-tests.txt"
timeout 100 "$bin" --shape 4096x4096x4096,2048x2048x2048 --dtype f16,bf16 --variants coopmat,coopmat2 --budget 20 \
  --out "$w/table.json" > "$w/tune.log" 2>&1
echo "tune nn exit $?"
timeout 60 "$bin" --shape 512x4096x14336 --layout nt --dtype f16,bf16 --variants coopmat,coopmat2 --budget 24 \
  --out "$w/table.json" >> "$w/tune.log" 2>&1
echo "tune nt exit $?"
timeout 60 "$bin" --shape 4096x4096x4096,1024x768x3072 --layout nt --dtype i8 --variants coopmat --budget 12 \
  --out "$w/table.json" >> "$w/tune.log" 2>&1
echo "tune i8 exit $?"
python3 scripts/ratio.py "$w/table.json" "$w/cublas.jsonl" --markdown "$out/bench.md" --json "$out/bench.json"
cat "$out/bench.md"
cp "$w/table.json" "$out/nvidia-h200.json"
tar czf "$out/logs.tgz" -C "$out" work && rm -rf "$w"
