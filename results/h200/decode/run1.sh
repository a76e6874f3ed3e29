#!/usr/bin/env bash
# Issue 18, call 1: the row-dot family on decode shapes (nt) beside ggml-vulkan and cuBLAS, in one call.
#   source .gpu-kit/activate.sh && results/h200/decode/run1.sh OUTDIR
set -uo pipefail
out=$1; mkdir -p "$out"
bin=./build/gemmtune
shapes=1x4096x14336,2x4096x14336,4x4096x14336,8x4096x14336,16x4096x14336,1x51865x768,1x768x14336
.gpu-kit/ggml_anchor.sh > "$out/ggml.jsonl" 2> "$out/ggml.err"
.gpu-kit/ggml_anchor.sh --matrix none 'type_a=f32,type_b=f32,m=4096,n=[0-9]+,k=14336,' > "$out/ggml-none.jsonl" 2>> "$out/ggml.err"
python3 .gpu-kit/cublas_anchor.py --shapes "$shapes" --dtypes f32,f16,bf16 --layouts nt,nn > "$out/cublas.jsonl"
python3 .gpu-kit/cublas_anchor.py --shapes 1x4096x14336,1x51865x768 --dtypes f32,f16,bf16 --layouts nt,nn --cold >> "$out/cublas.jsonl"
$bin peak --out "$out/table.json" > "$out/tune.log" 2>&1
$bin --shape "$shapes" --layout nt --variants rowdot --strategy exhaustive --dtype f32,f16,bf16 --budget 30 --samples 5 \
  --out "$out/table.json" >> "$out/tune.log" 2>&1
$bin --shape 1x4096x14336,1x51865x768 --layout nt --variants rowdot --dtype f32,f16,bf16 --budget 15 --cold \
  --out "$out/table.json" >> "$out/tune.log" 2>&1
grep -E "^\* |best:|^[0-9]+x" "$out/tune.log" | tail -80
