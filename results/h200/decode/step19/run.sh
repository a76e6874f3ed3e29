#!/usr/bin/env bash
# Issue 18 step 19, one H200 call: the one-pass split-k tests, then every rowdot config of step19/space.json at
# M x 768 x 14336 f16 nt (M = 1, 8, 16) beside cuBLAS, then the default screened tuning of 8x768x14336 and
# 16x768x14336 nt in f32, f16 and bf16 (--budget 40 a shape).
# Carry .gpu-kit, build/gemmtune and build/tests/gpu_tests:
#   source .gpu-kit/activate.sh && results/h200/decode/step19/run.sh OUT_DIR
set -uo pipefail
out=${1:?usage: run.sh OUT_DIR}
here=results/h200/decode/step19
bin=./build/gemmtune
mkdir -p "$out"
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 120 ./build/tests/gpu_tests --gtest_filter='SplitOnePass.*' > "$out/tests.log" 2>&1
echo "split tests exit $?" >> "$out/tests.log"; tail -3 "$out/tests.log"
timeout 90 python3 .gpu-kit/cublas_anchor.py --shapes 1x768x14336,8x768x14336,16x768x14336 --dtypes f32,f16,bf16 --layouts nt > "$out/cublas.jsonl"
$bin peak --out "$out/table.json" > "$out/tune.log" 2>&1
timeout 200 $bin --shape 1x768x14336,8x768x14336,16x768x14336 --layout nt --variants rowdot --strategy exhaustive --dtype f16 \
  --space $here/space.json --samples 5 --screen-warmup 0.05 --budget 50 --out "$out/table.json" >> "$out/tune.log" 2>&1
python3 results/h200/decode/list-configs.py "$out/table.json.journal.jsonl" > "$out/configs.txt"
for s in 1x768x14336 8x768x14336 16x768x14336; do
  for sp in 1 2 4 8 16; do grep "^$s " "$out/configs.txt" | grep "_splits$sp " | head -1; done
done
timeout 200 $bin --shape 8x768x14336,16x768x14336 --layout nt --dtype f32,f16,bf16 --budget 40 --out "$out/screened.json" > "$out/screened.log" 2>&1
python3 scripts/ratio.py "$out/screened.json" "$out/cublas.jsonl" --json "$out/bench.json" --markdown "$out/bench.md"
cat "$out/bench.md"
