#!/usr/bin/env bash
# Issue 18 steps 27-31, one H200 call: rowmma's GPU tests, optionally the kernels cuBLAS runs (KERNELS=1:
# cublas_kernels.py), every rowmma config of SPACE (default: fragments in registers, no splits) at SHAPES in DTYPES,
# layout nt, beside cuBLAS (OUT/configs.txt fastest first, OUT/registers.txt the driver's register counts), then with
# BENCH=1 the budgeted bench of step 26's lines (M = 4, 5, 8, 16) beside cuBLAS and ggml-vulkan.
# Step 31's two calls ran this script with a space adding "stages": [2, 3, 4], then [2, 3]
# (the parameter was not kept: notes, step 31).
# GEMMTUNE: the binary (default ./build/gemmtune); TESTS=0 skips the GPU tests (step 33 ran two binaries, one call).
# Carry .gpu-kit, build/gemmtune and build/tests/gpu_tests:
#   source .gpu-kit/activate.sh && results/h200/decode/rowmma-sweep.sh OUT_DIR
set -uo pipefail
here=results/h200/decode
out=${1:?usage: rowmma-sweep.sh OUT_DIR}
shapes=${SHAPES:-5x4096x14336,8x4096x14336,16x4096x14336}
dtypes=${DTYPES:-f16,bf16} budget=${BUDGET:-20} gemmtune=${GEMMTUNE:-./build/gemmtune}
mkdir -p "$out/exhaustive"
space=${SPACE:-$out/exhaustive/space.json}
[ -n "${SPACE:-}" ] || cat > "$space" <<'JSON'
{"space_version": 1,
 "variants": {"rowmma": {"sgk": [8, 16], "frags": [1, 2], "unroll": [2, 4, 8], "wide": [0], "regs": [1], "splits": [1]}}}
JSON
# No validation layer on that machine (see tests/gpu/lavapipe_env.cpp); never set in CI.
if [ "${TESTS:-1}" != 0 ]; then
  GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 240 ./build/tests/gpu_tests --gtest_filter='RowMma.*' > "$out/rowmma-tests.log" 2>&1
  echo "rowmma tests exit $?" | tee -a "$out/rowmma-tests.log"
  grep -E "^\[ *(OK|FAILED|PASSED|SKIPPED) " "$out/rowmma-tests.log" | head -12
fi
if [ "${KERNELS:-0}" != 0 ]; then
  timeout 90 python3 "$here/cublas_kernels.py" --shapes "1x4096x14336,$shapes" --dtypes "$dtypes" > "$out/cublas-kernels.jsonl" 2>&1
  cut -c1-300 "$out/cublas-kernels.jsonl"
fi
timeout 60 python3 .gpu-kit/cublas_anchor.py --shapes "$shapes" --dtypes "$dtypes" --layouts nt > "$out/exhaustive/cublas.jsonl"
"$gemmtune" peak --out "$out/exhaustive/table.json" > "$out/exhaustive/tune.log" 2>&1
timeout 330 "$gemmtune" --shape "$shapes" --layout nt --variants rowmma --space "$space" --strategy exhaustive \
  --dtype "$dtypes" --samples 5 --screen-warmup 0.05 --budget "$budget" --out "$out/exhaustive/table.json" >> "$out/exhaustive/tune.log" 2>&1
echo "exhaustive exit $?"
python3 scripts/ratio.py "$out/exhaustive/table.json" "$out/exhaustive/cublas.jsonl" --markdown "$out/exhaustive-bench.md"
python3 "$here/list-configs.py" "$out/exhaustive/table.json.journal.jsonl" > "$out/configs.txt"
python3 "$here/list-configs.py" --registers "$out/exhaustive/table.json.journal.jsonl" > "$out/registers.txt"
cat "$out/exhaustive-bench.md"
for s in ${shapes//,/ }; do grep "^$s " "$out/configs.txt" | head -8; done
if [ "${BENCH:-0}" != 0 ]; then
  printf '%s\n' "llama3-8b-down-m4 4x4096x14336 nt" "llama3-8b-down-m5 5x4096x14336 nt" "llama3-8b-down-m8 8x4096x14336 nt" \
    "llama3-8b-down-m16 16x4096x14336 nt" > "$out/exhaustive/decode-m4-16.txt"
  scripts/gpu-bench.sh --suite "" --int8-shapes "" --layout-shapes "" --decode-suite "$out/exhaustive/decode-m4-16.txt" \
    --budget 20 --out-dir "$out" > "$out/bench.log" 2>&1
  echo "bench exit $?"
  cat "$out/bench.md"
fi
tar czf "$out/logs.tgz" -C "$out" $(cd "$out" && ls rowmma-tests.log 2>/dev/null) exhaustive $(cd "$out" && ls bench.log tune.log 2>/dev/null)
rm -rf "$out/rowmma-tests.log" "$out/exhaustive" "$out/bench.log" "$out/tune.log" "$out"/*.journal.jsonl "$out"/*.lock
