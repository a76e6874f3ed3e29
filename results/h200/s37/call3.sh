#!/usr/bin/env bash
# Session of 2026-12-02, call 3 (notes: "call 3"): the f32 suite (f32/run.sh, three families, budget 20) and the M = 512
# f16 case on wider tiles.   source .gpu-kit/activate.sh && results/h200/s37/call3.sh $OUT
set -uo pipefail
out=${1:?usage: call3.sh OUT_DIR}
w=$out/work
mkdir -p "$w"
cm() {  # label space-json
  echo "{\"space_version\": 1, \"variants\": {\"coopmat\": $2}}" > "$w/space-$1.json"
  timeout 120 build/gemmtune --shape 512x4096x14336 --layout nt --dtype f16 --variants coopmat --space "$w/space-$1.json" \
    --strategy exhaustive --samples 5 --budget 100 --out "$w/m512.json" >> "$w/m512.log" 2>&1
  echo "m512 $1 exit $?"
}
cm wide-rows '{"bm": [256], "bn": [128], "bk": [32], "sgm": [4], "sgn": [2], "splits": [1, 2], "stages": [1]}'
cm wide-cols '{"bm": [128], "bn": [256], "bk": [32], "sgm": [2], "sgn": [4], "splits": [1, 2], "stages": [1]}'
cm square '{"bm": [128], "bn": [128], "bk": [32, 64], "sgm": [2], "sgn": [2], "splits": [2], "stages": [1, 2]}'
python3 results/h200/f32/configs.py "$w/m512.json.journal.jsonl" > "$out/m512-configs.txt"
cat "$out/m512-configs.txt"
VARIANTS=tiled,splitk,warptile BUDGET=20 results/h200/f32/run.sh "$out/f32"
tar czf "$out/work.tgz" -C "$out" work && rm -rf "$w"
