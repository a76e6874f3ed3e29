#!/usr/bin/env bash
# Issue 21 step 7, one H200 call: exhaustive coopmat lists at the mid-size grids (splits 1-8) and at 4096^3 (tiles
# other than 128 x 128), f16 with the step-5 kernel; bf16 4096^3 tuned with finals; cuBLAS in the same call. Run a
# clock log beside it (nvidia-smi -lms 100). SWEEPS (shape:list ...) and BF16=0 run a part. Carry .gpu-kit and build/gemmtune:
#   source .gpu-kit/activate.sh && results/h200/coopmat/step7.sh $OUT
set -uo pipefail
out=${1:?usage: step7.sh OUT_DIR}
bin=${GEMMTUNE:-./build/gemmtune}
w=$out/work21
mkdir -p "$w"
timeout 90 python3 .gpu-kit/cublas_anchor.py --dtypes f16,bf16 --layouts nn \
  --shapes 1024x768x3072,1024x3072x768,128x768x3072,4096x4096x4096 > "$w/cublas.jsonl"
space() { echo "{\"space_version\": 1, \"variants\": {\"coopmat\": $1}}" > "$w/$2"; }
space '{"bm": [64, 128], "bn": [64, 128], "bk": [64], "sgm": [2], "sgn": [2], "splits": [1, 2, 4, 8],
  "stages": [1]}' mid.json
space '{"bm": [128, 256], "bn": [64, 128, 256], "bk": [32, 64], "sgm": [2, 4], "sgn": [2], "splits": [1],
  "stages": [1]}' big.json
for s in ${SWEEPS:-1024x768x3072:mid 1024x3072x768:mid 128x768x3072:mid 4096x4096x4096:big}; do
  timeout 120 "$bin" --shape "${s%%:*}" --dtype f16 --variants coopmat --space "$w/${s##*:}.json" \
    --strategy exhaustive --samples 5 --budget 110 --out "$w/sweep.json" >> "$w/sweep.log" 2>&1
  echo "sweep $s exit $?"
done
python3 results/h200/f32/configs.py "$w/sweep.json.journal.jsonl" > "$out/coopmat-sweep.txt"
for s in 1024x768x3072 1024x3072x768 128x768x3072 4096x4096x4096; do grep "^$s " "$out/coopmat-sweep.txt" | head -4; done
[ "${BF16:-1}" = 1 ] && timeout 60 "$bin" --shape 4096x4096x4096 --dtype bf16 --variants coopmat --budget 20 --out "$w/table.json" \
  > "$w/tune.log" 2>&1
echo "tune bf16 exit $?"; grep -iE "best|moved" "$w/tune.log" | head -5
python3 scripts/ratio.py "$w/sweep.json" "$w/cublas.jsonl" --markdown "$out/coopmat-bench.md" && cat "$out/coopmat-bench.md"
[ "${BF16:-1}" = 1 ] && python3 scripts/ratio.py "$w/table.json" "$w/cublas.jsonl" --markdown "$out/bf16-bench.md" &&
  cat "$out/bf16-bench.md"
