#!/usr/bin/env bash
# Steps 14-15 (notes, session of 2026-12-02, second), one call: the small grids exhaustively over the deeper splits,
# then the f32 suite (f32/run.sh, three families, budget 20) and the 16-bit suite (coopmat) tuned with this binary,
# cuBLAS and ggml-vulkan in the same call.   source .gpu-kit/activate.sh && results/h200/s38/call2.sh $OUT
set -uo pipefail
out=${1:?usage: call2.sh OUT_DIR}
bin=./build/gemmtune
mkdir -p "$out/work"
w=$out/work
timeout 90 python3 .gpu-kit/cublas_anchor.py --dtypes f16,bf16 --layouts nn \
  --shapes 4096x4096x4096,2048x2048x2048,1024x768x3072,1024x3072x768,128x768x3072 > "$w/cublas16.jsonl"
timeout 60 python3 .gpu-kit/cublas_anchor.py --dtypes f16,bf16 --layouts nt --shapes 512x4096x14336 >> "$w/cublas16.jsonl"
timeout 90 .gpu-kit/ggml_anchor.sh 'type_a=(f16|bf16),type_b=f32,m=4096,n=512,k=14336,' > "$w/ggml.jsonl" 2> "$w/ggml.err"
# Step 15: exhaustive lists over the splits at the small grids.
echo '{"space_version": 1, "variants": {"warptile": {"bm": [32, 64], "bn": [64], "bk": [8], "wm": [16, 32], "wn": [32, 64],
  "tm": [8], "tn": [4], "splits": [8, 12, 16, 24, 32], "reduce": [1]}}}' > "$w/small32.json"
echo '{"space_version": 1, "variants": {"coopmat": {"bm": [64], "bn": [64], "bk": [32, 64], "sgm": [2], "sgn": [2, 4],
  "splits": [4, 8, 16], "stages": [1]}}}' > "$w/small16.json"
for s in 128x768x3072 128x768x768; do
  timeout 100 "$bin" --shape $s --dtype f32 --variants warptile --space "$w/small32.json" --strategy exhaustive \
    --samples 5 --budget 80 --out "$w/small.json" >> "$w/small.log" 2>&1; echo "small f32 $s exit $?"
  timeout 60 "$bin" --shape $s --dtype f16 --variants coopmat --space "$w/small16.json" --strategy exhaustive \
    --samples 5 --budget 50 --out "$w/small.json" >> "$w/small.log" 2>&1; echo "small f16 $s exit $?"
done
python3 results/h200/f32/configs.py "$w/small.json.journal.jsonl" > "$out/small.txt"
for s in "128x768x3072 nn" "128x768x768 nn"; do grep "^$s " "$out/small.txt" | head -8; done
# The 16-bit suite.
timeout 150 "$bin" --shape 4096x4096x4096,2048x2048x2048,1024x768x3072,1024x3072x768,128x768x3072 --dtype f16,bf16 \
  --variants coopmat --budget 12 --out "$w/table16.json" > "$w/tune16.log" 2>&1; echo "tune16 nn exit $?"
timeout 70 "$bin" --shape 512x4096x14336 --layout nt --dtype f16,bf16 --variants coopmat --budget 24 \
  --out "$w/table16.json" >> "$w/tune16.log" 2>&1; echo "tune16 nt exit $?"
python3 scripts/ratio.py "$w/table16.json" "$w/cublas16.jsonl" --ggml "$w/ggml.jsonl" --markdown "$out/bench16.md" \
  --json "$out/bench16.json"
cat "$out/bench16.md"
# The f32 suite (its own cuBLAS, bench.md, configs.txt and logs under OUT/f32).
VARIANTS=tiled,splitk,warptile BUDGET=20 results/h200/f32/run.sh "$out/f32" | grep -v "^$"
tar czf "$out/logs.tgz" -C "$out" work && rm -rf "$w"
