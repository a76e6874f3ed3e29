#!/usr/bin/env bash
# Issue 21, one H200 call (2026-12-02, after call1.sh): the KHR coopmat kernel's loads issued a step earlier (EARLY,
# spec constant 7) against the old order, exhaustively over the 128/256 tiles at 4096^3 f16 (with registers), at
# 2048^3 f16 and at 4096^3 i8 nt; coopmat2's 128x128 BK 64 config benched three times from a fresh pipeline with the
# warm-up that now waits for steady clocks; cuBLAS (f16, int8 nt) in the same call.
# Carry .gpu-kit and build/gemmtune:  source .gpu-kit/activate.sh && results/h200/coopmat/call2.sh $OUT
set -uo pipefail
out=${1:?usage: call2.sh OUT_DIR}
bin=${GEMMTUNE:-./build/gemmtune}
mkdir -p "$out/work"
w=$out/work
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,clocks_throttle_reasons.active --format=csv -lms 100 > "$w/smi.csv" 2>&1 &
smi=$!
timeout 120 python3 .gpu-kit/cublas_anchor.py --dtypes f16 --layouts nn --shapes 4096x4096x4096,2048x2048x2048 > "$w/cublas.jsonl"
timeout 60 python3 scripts/cublas_int8_anchor.py --shapes 4096x4096x4096 --layouts nt >> "$w/cublas.jsonl"
grep -h '"us"' "$w/cublas.jsonl" | cut -c1-150
sweep() {  # name shape dtype layout space
  timeout 280 "$bin" --shape "$2" --dtype "$3" --layout "$4" --variants coopmat --space "$5" \
    --strategy exhaustive --samples 3 --budget 250 --out "$w/$1.json" > "$w/$1.log" 2>&1
  echo "$1 exit $?"
  python3 results/h200/f32/configs.py "$w/$1.json.journal.jsonl" > "$out/$1.txt"
  head -12 "$out/$1.txt"
}
echo '{"space_version": 1, "variants": {"coopmat": {"bm": [128, 256], "bn": [128, 256], "bk": [16, 32, 64],
  "sgm": [2, 4], "sgn": [2, 4], "splits": [1], "stages": [1, 2], "early": [0, 1]}}}' > "$w/space.json"
sweep f16-4096 4096x4096x4096 f16 nn "$w/space.json"
echo '{"space_version": 1, "variants": {"coopmat": {"bm": [64, 128], "bn": [128, 256], "bk": [32, 64],
  "sgm": [2, 4], "sgn": [2, 4], "splits": [1], "stages": [1, 2], "early": [0, 1]}}}' > "$w/space2.json"
sweep f16-2048 2048x2048x2048 f16 nn "$w/space2.json"
echo '{"space_version": 1, "variants": {"coopmat": {"bm": [128, 256], "bn": [128, 256], "bk": [32, 64],
  "sgm": [2, 4], "sgn": [2, 4], "splits": [1], "stages": [1, 2], "early": [0, 1]}}}' > "$w/space3.json"
sweep i8-4096-nt 4096x4096x4096 i8 nt "$w/space3.json"
for i in 1 2 3; do
  echo "$(date +%H:%M:%S.%N) coopmat2 $i" >> "$w/stamps.txt"
  timeout 60 "$bin" bench --shape 4096x4096x4096 --dtype f16 --config coopmat2_f16_wg128_bm128_bn128_bk64_splits1 \
    --samples 10 --json > "$w/cm2-$i.json" 2> "$w/cm2-$i.log"
  python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print('coopmat2', r['median_us'], r['min_us'], r['compile_ms'])" "$w/cm2-$i.json"
done
kill $smi
tar czf "$out/logs.tgz" -C "$out" work && rm -rf "$w"
