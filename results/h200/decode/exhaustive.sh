#!/usr/bin/env bash
# One H200 call: rowmma's GPU tests (TESTS=0 skips them), then every config of VARIANT on SHAPES (f16, LAYOUT) beside cuBLAS, each
# config's time listed fastest first (configs.txt). Issue 18, steps 8 on.
# Carry .gpu-kit, build/gemmtune and build/tests/gpu_tests:
#   source .gpu-kit/activate.sh && results/h200/decode/exhaustive.sh OUT_DIR VARIANT LAYOUT SHAPES BUDGET
set -uo pipefail
out=${1:?usage: exhaustive.sh OUT_DIR VARIANT LAYOUT SHAPES BUDGET}
variant=$2 layout=$3 shapes=$4 budget=$5
bin=./build/gemmtune
mkdir -p "$out"
# No validation layer on that machine (see tests/gpu/lavapipe_env.cpp); never set in CI.
if [ "${TESTS:-1}" != 0 ]; then
  GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 150 ./build/tests/gpu_tests --gtest_filter='RowMma.*' > "$out/rowmma-tests.log" 2>&1
  echo "rowmma tests exit $?" >> "$out/rowmma-tests.log"
  tail -3 "$out/rowmma-tests.log"
fi
timeout 60 python3 .gpu-kit/cublas_anchor.py --shapes "$shapes" --dtypes f16 --layouts "$layout" > "$out/cublas.jsonl"
$bin peak --out "$out/table.json" > "$out/tune.log" 2>&1
timeout $((budget * 4 + 30)) $bin --shape "$shapes" --layout "$layout" --variants "$variant" --strategy exhaustive --dtype f16 \
  --samples 5 --screen-warmup 0.05 --budget "$budget" --out "$out/table.json" >> "$out/tune.log" 2>&1
python3 scripts/ratio.py "$out/table.json" "$out/cublas.jsonl" --json "$out/bench.json" --markdown "$out/bench.md"
python3 results/h200/decode/list-configs.py "$out/table.json.journal.jsonl" > "$out/configs.txt"
cat "$out/bench.md"
for s in ${shapes//,/ }; do grep "^$s " "$out/configs.txt" | head -8; done
