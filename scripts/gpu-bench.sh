#!/usr/bin/env bash
# The H200 benchmark, rerunnable: tunes configs/shapes/h200-suite.txt in f32, f16 and bf16, runs cuBLAS on the
# same shapes in the same run, and writes the side-by-side table. Run on the GPU machine from the checkout with
# .gpu-kit/ and build/gemmtune present (see ../shared/gpu-kit/README.md):
#   source .gpu-kit/activate.sh && scripts/gpu-bench.sh [--budget SECONDS] [--out-dir DIR] [--int8-shapes LIST]
# Runs the anchor, measures the device's ceilings (gemmtune peak), tunes every shape with hot L2, then the shapes marked
# `cold` in the suite again with --cold (inputs rotated through more than 256 MiB), and runs the anchor both ways.
# Then tunes the 8-bit integer shapes (i8 and u8, layouts nn and nt, hot; default 4096x4096x4096,1024x768x3072, issue 10; "" for none),
# which bench.md lists in TOPS beside the f16 figures, with cuBLAS's int8 product (scripts/cublas_int8_anchor.py) for i8.
# Writes DIR/bench.md, DIR/bench.json, DIR/nvidia-h200.json (the tuning table), DIR/cublas.jsonl and DIR/tune.log
# (DIR defaults to results/h200).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
budget=20
out=$root/results/h200
int8_shapes=4096x4096x4096,1024x768x3072
while [ $# -gt 0 ]; do
  case "$1" in
    --budget) budget=$2; shift 2 ;;
    --out-dir) out=$2; shift 2 ;;
    --int8-shapes) int8_shapes=$2; shift 2 ;;
    *) echo "gpu-bench.sh: unknown argument '$1' (expected --budget SECONDS, --out-dir DIR or --int8-shapes LIST)" >&2; exit 2 ;;
  esac
done
bin=${GEMMTUNE_BIN:-$root/build/gemmtune}
anchor=${CUBLAS_ANCHOR:-$root/.gpu-kit/cublas_anchor.py}
int8_anchor=${CUBLAS_INT8_ANCHOR:-$root/scripts/cublas_int8_anchor.py}
suite=$root/configs/shapes/h200-suite.txt
# Suite lines: name MxNxK [cold] [# comment]
problems=$(sed 's/#.*//' "$suite")
shapes=$(echo "$problems" | grep -oE '[0-9]+x[0-9]+x[0-9]+(x[0-9]+)?' | paste -sd, -)
cold_shapes=$(echo "$problems" | grep -wE 'cold' | grep -oE '[0-9]+x[0-9]+x[0-9]+(x[0-9]+)?' | paste -sd, -)
mkdir -p "$out"
# cuBLAS first: the anchor's few minutes are then never what a time limit cuts off.
python3 "$anchor" --shapes "$shapes" --dtypes f32,f16,bf16 > "$out/cublas.jsonl"
if [ -n "$cold_shapes" ]; then
  python3 "$anchor" --shapes "$cold_shapes" --dtypes f32,f16,bf16 --cold >> "$out/cublas.jsonl"
fi
if [ -n "$int8_shapes" ]; then
  python3 "$int8_anchor" --shapes "$int8_shapes" --layouts nn,nt >> "$out/cublas.jsonl"
fi
"$bin" peak --out "$out/nvidia-h200.json" 2>&1 | tee "$out/tune.log"
"$bin" --shape "$shapes" --dtype f32,f16,bf16 --budget "$budget" --out "$out/nvidia-h200.json" 2>&1 | tee -a "$out/tune.log"
if [ -n "$cold_shapes" ]; then
  "$bin" --shape "$cold_shapes" --dtype f32,f16,bf16 --cold --budget "$budget" --out "$out/nvidia-h200.json" 2>&1 | tee -a "$out/tune.log"
fi
if [ -n "$int8_shapes" ]; then
  "$bin" --shape "$int8_shapes" --dtype i8,u8 --layout nn,nt --budget "$budget" --out "$out/nvidia-h200.json" 2>&1 | tee -a "$out/tune.log"
fi
python3 "$root/scripts/ratio.py" "$out/nvidia-h200.json" "$out/cublas.jsonl" --json "$out/bench.json" --markdown "$out/bench.md"
