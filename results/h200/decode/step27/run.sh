#!/usr/bin/env bash
# Issue 18 steps 27 and 28, one H200 call each: rowmma's GPU tests (with the fragment-layout probe's listing), every
# rowmma config of SPACE at SHAPES in DTYPES, nt, beside cuBLAS (configs.txt, fastest first), then the budgeted bench of
# step 26's lines beside cuBLAS and ggml-vulkan (gpu-bench.sh, budget 20).
# Step 27: the defaults (step27/space.json: regs 0 and 1, no splits; M = 5, 8, 16; f16; 60 s a shape). Step 28:
#   SPACE=results/h200/decode/step28/space.json SHAPES=3x4096x14336,5x4096x14336,8x4096x14336,16x4096x14336 \
#   DTYPES=f16,bf16 BUDGET=40 results/h200/decode/step27/run.sh OUT_DIR
# Step 30: the same SPACE, SHAPES=3x4096x14336,5x4096x14336,8x4096x14336 DTYPES=f16 BUDGET=25 BENCH=0 (no bench).
# Carry .gpu-kit, build/gemmtune and build/tests/gpu_tests:
#   source .gpu-kit/activate.sh && results/h200/decode/step27/run.sh OUT_DIR
set -uo pipefail
out=${1:?usage: run.sh OUT_DIR}
space=${SPACE:-results/h200/decode/step27/space.json}
shapes=${SHAPES:-5x4096x14336,8x4096x14336,16x4096x14336}
dtypes=${DTYPES:-f16} budget=${BUDGET:-60}
mkdir -p "$out/exhaustive"
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 150 ./build/tests/gpu_tests --gtest_filter='RowMma.*' > "$out/rowmma-tests.log" 2>&1
echo "rowmma tests exit $?" | tee -a "$out/rowmma-tests.log"
grep -A20 "FragmentLayoutProbe" "$out/rowmma-tests.log" | head -24
timeout 60 python3 .gpu-kit/cublas_anchor.py --shapes "$shapes" --dtypes "$dtypes" --layouts nt > "$out/exhaustive/cublas.jsonl"
./build/gemmtune peak --out "$out/exhaustive/table.json" > "$out/exhaustive/tune.log" 2>&1
timeout 300 ./build/gemmtune --shape "$shapes" --layout nt --variants rowmma --space "$space" --strategy exhaustive \
  --dtype "$dtypes" --samples 5 --screen-warmup 0.05 --budget "$budget" --out "$out/exhaustive/table.json" >> "$out/exhaustive/tune.log" 2>&1
echo "exhaustive exit $?"
python3 scripts/ratio.py "$out/exhaustive/table.json" "$out/exhaustive/cublas.jsonl" --markdown "$out/exhaustive/bench.md"
python3 results/h200/decode/list-configs.py "$out/exhaustive/table.json.journal.jsonl" > "$out/configs.txt"
cat "$out/exhaustive/bench.md"
for s in ${shapes//,/ }; do grep "^$s " "$out/configs.txt" | head -10; done
if [ "${BENCH:-1}" != 0 ]; then
  scripts/gpu-bench.sh --suite "" --int8-shapes "" --layout-shapes "" --decode-suite results/h200/decode/step26/decode-m4-16.txt \
    --budget 20 --out-dir "$out" > "$out/bench.log" 2>&1
  echo "bench exit $?"
  cat "$out/bench.md"
fi
tar czf "$out/logs.tgz" -C "$out" rowmma-tests.log exhaustive $(cd "$out" && ls bench.log tune.log 2>/dev/null)
rm -rf "$out/rowmma-tests.log" "$out/bench.log" "$out/exhaustive"
