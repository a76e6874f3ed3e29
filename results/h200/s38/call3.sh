#!/usr/bin/env bash
# Step 16 (notes, session of 2026-12-02, second), one call: coopmat at BK 128 beside BK 64, exhaustive lists, i8 nt
# and f16, each config verified; mixed interior and edge tiles (1000x1040x1056, four layouts); cuBLAS in the same call.
#   source .gpu-kit/activate.sh && results/h200/s38/call3.sh $OUT
set -uo pipefail
out=${1:?usage: call3.sh OUT_DIR}
bin=./build/gemmtune
mkdir -p "$out/work"
w=$out/work
timeout 60 python3 scripts/cublas_int8_anchor.py --shapes 4096x4096x4096,1024x768x3072 --layouts nt > "$w/cublas.jsonl"
timeout 90 python3 .gpu-kit/cublas_anchor.py --dtypes f16 --layouts nn \
  --shapes 4096x4096x4096,1024x768x3072,1024x3072x768,128x768x3072 >> "$w/cublas.jsonl"
grep -h '"us"' "$w/cublas.jsonl" | cut -c1-150
space() { echo "{\"space_version\": 1, \"variants\": {\"coopmat\": $1}}" > "$w/$2.json"; }
space '{"bm": [128], "bn": [128], "bk": [64, 128], "sgm": [2, 4], "sgn": [2], "splits": [1], "stages": [1]}' i8big
space '{"bm": [64, 128], "bn": [64, 128], "bk": [64, 128], "sgm": [2], "sgn": [2], "splits": [1], "stages": [1]}' i8mid
space '{"bm": [64, 128], "bn": [64, 128], "bk": [64, 128], "sgm": [2], "sgn": [2, 4], "splits": [1, 2], "stages": [1]}' f16mid
space '{"bm": [64], "bn": [64], "bk": [64, 128], "sgm": [2], "sgn": [2, 4], "splits": [4, 8], "stages": [1, 2]}' f16small
space '{"bm": [128], "bn": [128], "bk": [64, 128], "sgm": [2], "sgn": [2], "splits": [1], "stages": [1]}' f16big
run() {  # shape layout dtype space budget
  timeout $(( $5 + 30 )) "$bin" --shape $1 --layout $2 --dtype $3 --variants coopmat --space "$w/$4.json" \
    --strategy exhaustive --samples 5 --budget $5 --out "$w/lists.json" >> "$w/lists.log" 2>&1
  echo "$1 $2 $3 $4 exit $?"
}
run 4096x4096x4096 nt i8 i8big 60
run 1024x768x3072 nt i8 i8mid 40
run 4096x4096x4096 nn f16 f16big 40
run 1024x768x3072 nn f16 f16mid 60
run 1024x3072x768 nn f16 f16mid 60
run 128x768x3072 nn f16 f16small 40
python3 results/h200/f32/configs.py "$w/lists.json.journal.jsonl" > "$out/lists.txt"
for s in "4096x4096x4096 nt" "1024x768x3072 nt" "4096x4096x4096 nn" "1024x768x3072 nn" "1024x3072x768 nn" "128x768x3072 nn"; do
  grep "^$s " "$out/lists.txt" | head -5
done
space '{"bm": [64, 128], "bn": [64, 128], "bk": [128], "sgm": [2], "sgn": [2], "splits": [1], "stages": [1]}' mixed
timeout 150 "$bin" --shape 1000x1040x1056 --dtype f16,i8 --layout nn,nt,tn,tt --variants coopmat --space "$w/mixed.json" \
  --strategy exhaustive --samples 3 --warmup 1 --out "$w/mixed.out.json" > "$w/mixed.log" 2>&1
echo "mixed tiles exit $?"
python3 - "$w/mixed.out.json.journal.jsonl" <<'PY' | tee "$out/mixed.txt"
import json, sys, collections
d = collections.Counter()
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("config", "").startswith("coopmat") and r.get("disposition"): d[r["disposition"]] += 1
print("BK 128 configs by disposition over the mixed-tile problems:", dict(d))
PY
tar czf "$out/logs.tgz" -C "$out" work && rm -rf "$w"
