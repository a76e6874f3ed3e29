#!/usr/bin/env bash
# Session of 2026-12-02, call 1 (notes: "Session of 2026-12-02, call 1"): issue 22 step 12 (warptile's epilogue,
# base against new), step 11's confirmation, issue 21 step 9 (coopmat reduce0) with its H200 tests, probe E (L2 copy).
# Carry .gpu-kit, build/gemmtune, build-base/gemmtune, build-test/tests/gpu_tests.
#   source .gpu-kit/activate.sh && results/h200/s37/call1.sh $OUT
set -uo pipefail
out=${1:?usage: call1.sh OUT_DIR}
w=$out/work
mkdir -p "$w"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv -lms 200 > "$w/clocks.csv" &
smi=$!
new=build/gemmtune
# Anchors first (cuBLAS through PyTorch; ggml-vulkan's M = 512 case).
timeout 120 python3 .gpu-kit/cublas_anchor.py --dtypes f16,bf16 --layouts nn,nt \
  --shapes 512x4096x14336,1024x768x3072,128x768x3072,1024x3072x768 > "$w/cublas-16.jsonl"
timeout 90 python3 .gpu-kit/cublas_anchor.py --dtypes f32 --layouts nn --shapes 1024x3072x768 > "$w/cublas-f32.jsonl"
grep -h '"us"' "$w"/cublas-*.jsonl | cut -c1-160
timeout 90 .gpu-kit/ggml_anchor.sh 'type_a=(f16|bf16),type_b=f32,m=4096,n=512,k=14336,' > "$w/ggml.jsonl"
cat "$w/ggml.jsonl" | cut -c1-160
# Probe E: copy rates at L2-resident and DRAM sizes.
for b in 4194304 16777216 268435456; do
  timeout 60 $new peak --json --copy-bytes $b --out "$w/peak-table.json" > "$w/peak-$b.json" 2>> "$w/peak.log"
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('copy', sys.argv[2], {k: v for k, v in d.items() if 'copy' in k})" \
    "$w/peak-$b.json" $b
done
# Issue 21 step 9: reduce0 against the reduce pass, exhaustive, per shape.
cm() {  # shape layout dtype space-json
  echo "{\"space_version\": 1, \"variants\": {\"coopmat\": $4}}" > "$w/space-$1-$3.json"
  timeout 150 $new --shape $1 --layout $2 --dtype $3 --variants coopmat --space "$w/space-$1-$3.json" \
    --strategy exhaustive --samples 5 --budget 120 --out "$w/coopmat.json" >> "$w/coopmat.log" 2>&1
  echo "coopmat $1 $2 $3 exit $?"
}
one='"bk": [64], "sgm": [2], "sgn": [2], "stages": [1], "reduce": [0, 1]'
cm 512x4096x14336 nt f16 "{\"bm\": [128], \"bn\": [128], \"splits\": [1, 2, 4], $one}"
cm 512x4096x14336 nt bf16 "{\"bm\": [128], \"bn\": [128], \"splits\": [2], $one}"
cm 128x768x3072 nn f16 "{\"bm\": [64], \"bn\": [64], \"splits\": [4, 8], $one}"
cm 1024x768x3072 nn f16 "{\"bm\": [64, 128], \"bn\": [64, 128], \"splits\": [2, 4], $one}"
python3 scripts/ratio.py "$w/coopmat.json" "$w/cublas-16.jsonl" --ggml "$w/ggml.jsonl" --markdown "$out/coopmat-bench.md" ||
  python3 scripts/ratio.py "$w/coopmat.json" "$w/cublas-16.jsonl" --markdown "$out/coopmat-bench.md"
python3 results/h200/f32/configs.py "$w/coopmat.json.journal.jsonl" > "$out/coopmat-configs.txt"
# The H200 tests of the new one-pass split and of every coopmat operation case.
timeout 200 build-test/tests/gpu_tests --gtest_filter='SplitOnePass.*:AllVariants/Operation.*/coopmat_*' > "$w/gpu-tests.log" 2>&1
echo "gpu_tests exit $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED  \]|OK \] SplitOnePass" "$w/gpu-tests.log" | head -20
# Issue 22 step 11's confirmation.
timeout 60 $new --shape 1024x3072x768 --dtype f32 --variants tiled,splitk,warptile --budget 20 --out "$w/s11.json" > "$w/s11.log" 2>&1
echo "step 11 exit $?"
python3 scripts/ratio.py "$w/s11.json" "$w/cublas-f32.jsonl" --markdown "$out/s11-bench.md" && tail -1 "$out/s11-bench.md"
# Issue 22 step 12: base against new on the 128 x 128 8 x 8 tiles.
VARIANT=warptile BINS="base=build-base/gemmtune new=build/gemmtune" TUNE_TIMEOUT=100 \
  SPACE='{"bm": [128], "bn": [128], "bk": [8], "wm": [32, 64], "wn": [32, 64], "tm": [8], "tn": [8], "splits": [1]}' \
  SHAPES="2048x2048x2048:nn 2048x2048x2048:tt 4096x4096x4096:nn" results/h200/f32/compare.sh "$out/f32ab"
kill $smi
tar czf "$out/work.tgz" -C "$out" work f32ab && rm -rf "$w" "$out/f32ab"
