#!/usr/bin/env bash
# Issue 21, one H200 call (2026-12-02, after call2.sh): (1) cuBLAS f16/bf16 on the shapes (nt for
# 512x4096x14336) and ggml-vulkan's M = 512 case; (2) the coopmat kernel with interior tiles staged from indices
# advanced a step at a time (this binary) against the step-3 kernel (BASE), same 128x128 configs at 4096^3 and 2048^3
# f16; (3) the operation tests of coopmat in every dtype and layout (GEMMTUNE_TEST_WITHOUT_VALIDATION: no layer
# there); (4) the 16-bit suite rows tuned with coopmat and coopmat2 under the warm-up that waits for the clocks.
# Carry .gpu-kit, build/gemmtune, build-test/tests/gpu_tests, .probe (BASE = .probe/gemmtune-base):
#   source .gpu-kit/activate.sh && results/h200/coopmat/call3.sh $OUT
set -uo pipefail
out=${1:?usage: call3.sh OUT_DIR}
bin=${GEMMTUNE:-./build/gemmtune} base=${BASE:-./.probe/gemmtune-base}
mkdir -p "$out/work"
w=$out/work
shapes=4096x4096x4096,2048x2048x2048,1024x768x3072,1024x3072x768,128x768x3072,128x768x768
timeout 150 python3 .gpu-kit/cublas_anchor.py --dtypes f16,bf16 --layouts nn --shapes $shapes > "$w/cublas.jsonl"
timeout 60 python3 .gpu-kit/cublas_anchor.py --dtypes f16,bf16 --layouts nt --shapes 512x4096x14336 >> "$w/cublas.jsonl"
timeout 90 .gpu-kit/ggml_anchor.sh 'type_a=(f16|bf16),type_b=f32,m=4096,n=512,k=14336,' > "$w/ggml.jsonl"
cat "$w/ggml.jsonl"
echo '{"space_version": 1, "variants": {"coopmat": {"bm": [128], "bn": [128], "bk": [32, 64], "sgm": [2, 4],
  "sgn": [2, 4], "splits": [1], "stages": [1, 2]}}}' > "$w/space.json"
for b in base:$base new:$bin; do
  for s in 4096x4096x4096 2048x2048x2048; do
    timeout 100 "${b#*:}" --shape $s --dtype f16 --variants coopmat --space "$w/space.json" --strategy exhaustive \
      --samples 3 --budget 90 --out "$w/${b%%:*}-$s.json" > "$w/${b%%:*}-$s.log" 2>&1
    python3 results/h200/f32/configs.py "$w/${b%%:*}-$s.json.journal.jsonl" | sed "s/^/${b%%:*} /" >> "$out/interior.txt"
  done
done
grep -v naive "$out/interior.txt"
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 170 build-test/tests/gpu_tests --gtest_filter='AllVariants/Operation.*/coopmat_*' \
  > "$out/operation-tests.txt" 2>&1
echo "operation tests exit $?"; grep -E "^\[  (PASSED|FAILED) |tests ran" "$out/operation-tests.txt"
timeout 200 "$bin" --shape $shapes --dtype f16,bf16 --variants coopmat,coopmat2 --budget 10 --total-budget 130 \
  --out "$w/table.json" > "$w/tune.log" 2>&1
echo "tune nn exit $?"
timeout 60 "$bin" --shape 512x4096x14336 --layout nt --dtype f16,bf16 --variants coopmat,coopmat2 --budget 24 \
  --out "$w/table.json" >> "$w/tune.log" 2>&1
echo "tune nt exit $?"
python3 scripts/ratio.py "$w/table.json" "$w/cublas.jsonl" --ggml "$w/ggml.jsonl" --markdown "$out/bench.md" \
  --json "$out/bench.json"
cat "$out/bench.md"
cp "$w/table.json" "$out/nvidia-h200.json"
tar czf "$out/logs.tgz" -C "$out" work && rm -rf "$w"
