#!/usr/bin/env bash
# The H200 benchmark, rerunnable: tunes configs/shapes/h200-suite.txt (--suite FILE; "" for none) in f32, f16 and bf16, runs cuBLAS on the
# same shapes in the same run, and writes the side-by-side table. Run on the GPU machine from the checkout with
# .gpu-kit/ and build/gemmtune present (see ../shared/gpu-kit/README.md):
#   source .gpu-kit/activate.sh && scripts/gpu-bench.sh [--budget SECONDS] [--out-dir DIR] [--int8-shapes LIST]
#                                                       [--decode-suite FILE] [--layout-shapes LIST] [--suite FILE]
#                                                       [--peak-copy-bytes BYTES] [--resume]
# Runs the anchor, measures the device's ceilings (gemmtune peak), tunes every shape with hot L2, then the shapes marked
# `cold` in the suite again with --cold (inputs rotated through more than 256 MiB), and runs the anchor both ways.
# Then tunes the 8-bit integer shapes (i8 and u8, layouts nn and nt, hot; default 4096x4096x4096,1024x768x3072, issue 10; "" for none),
# which bench.md lists in TOPS beside the f16 figures, with cuBLAS's int8 product (scripts/cublas_int8_anchor.py) for i8.
# Then the decode suite (issue 18; default configs/shapes/decode.txt, "" for none: M = 1..16, weights stored N x K,
# layout nt) beside cuBLAS nt and ggml-vulkan (.gpu-kit/ggml_anchor.sh: its matrix-unit cases for 16-bit weights,
# its --matrix none cases for f32), its `cold` lines again with --cold; and LIST (--layout-shapes, default
# 1x51865x768, "" for none) in all four layouts, hot and cold. --peak-copy-bytes sets the copy buffers' size of
# `gemmtune peak` (default its own, 256 MiB). --resume carries on in DIR where a run was cut off (a device call's
# time limit: `timeout -s INT` stops the tune in flight cleanly): the anchors and the peak are not run again where
# they finished (DIR/anchors.done, DIR/peak.done), and every tune resumes from the table's journal (problems done are
# skipped, configs screened are not measured again; same device and tool version only).
# Writes DIR/bench.md, DIR/bench.json, DIR/nvidia-h200.json (the tuning table), DIR/cublas.jsonl, DIR/ggml.jsonl
# and DIR/tune.log (DIR defaults to results/h200).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
budget=20
suite=$root/configs/shapes/h200-suite.txt
out=$root/results/h200
int8_shapes=4096x4096x4096,1024x768x3072
decode_suite=$root/configs/shapes/decode.txt
layout_shapes=1x51865x768
peak_copy_bytes=268435456
resume=0
while [ $# -gt 0 ]; do
  case "$1" in
    --budget) budget=$2; shift 2 ;;
    --out-dir) out=$2; shift 2 ;;
    --int8-shapes) int8_shapes=$2; shift 2 ;;
    --decode-suite) decode_suite=$2; shift 2 ;;
    --layout-shapes) layout_shapes=$2; shift 2 ;;
    --suite) suite=$2; shift 2 ;;
    --peak-copy-bytes) peak_copy_bytes=$2; shift 2 ;;
    --resume) resume=1; shift ;;
    *) echo "gpu-bench.sh: unknown argument '$1' (expected --budget SECONDS, --out-dir DIR, --int8-shapes LIST, --decode-suite FILE, --layout-shapes LIST, --suite FILE, --peak-copy-bytes BYTES or --resume)" >&2; exit 2 ;;
  esac
done
bin=${GEMMTUNE_BIN:-$root/build/gemmtune}
anchor=${CUBLAS_ANCHOR:-$root/.gpu-kit/cublas_anchor.py}
int8_anchor=${CUBLAS_INT8_ANCHOR:-$root/scripts/cublas_int8_anchor.py}
ggml_anchor=${GGML_ANCHOR:-$root/.gpu-kit/ggml_anchor.sh}
# Suite lines: name MxNxK [cold] [# comment]
problems=$([ -z "$suite" ] || sed 's/#.*//' "$suite")
shapes=$(echo "$problems" | { grep -oE '[0-9]+x[0-9]+x[0-9]+(x[0-9]+)?' || true; } | paste -sd, -)
cold_shapes=$(echo "$problems" | { grep -wE 'cold' || true; } | { grep -oE '[0-9]+x[0-9]+x[0-9]+(x[0-9]+)?' || true; } | paste -sd, -)
shapes_of() { sed 's/#.*//' "$1" | { grep -oE '[0-9]+x[0-9]+x[0-9]+(x[0-9]+)?' || true; } | paste -sd, -; }
cold_shapes_of() { sed 's/#.*//' "$1" | { grep -wE 'cold' || true; } | { grep -oE '[0-9]+x[0-9]+x[0-9]+(x[0-9]+)?' || true; } | paste -sd, -; }
decode_shapes="" decode_cold=""
if [ -n "$decode_suite" ]; then
  decode_shapes=$(shapes_of "$decode_suite")
  decode_cold=$(cold_shapes_of "$decode_suite")
fi
mkdir -p "$out"
tune_flags=()
if [ "$resume" = 1 ]; then
  tune_flags=(--resume)
else
  rm -f "$out/anchors.done" "$out/peak.done"
fi
# A tune into the table, resumed where --resume says, its output kept in tune.log.
tune() { "$bin" "$@" --budget "$budget" ${tune_flags[@]+"${tune_flags[@]}"} --out "$out/nvidia-h200.json" 2>&1 | tee -a "$out/tune.log"; }
# cuBLAS first: the anchor's few minutes are then never what a time limit cuts off.
if [ ! -e "$out/anchors.done" ]; then
  : > "$out/cublas.jsonl"
  [ -z "$shapes" ] || python3 "$anchor" --shapes "$shapes" --dtypes f32,f16,bf16 >> "$out/cublas.jsonl"
  if [ -n "$cold_shapes" ]; then
    python3 "$anchor" --shapes "$cold_shapes" --dtypes f32,f16,bf16 --cold >> "$out/cublas.jsonl"
  fi
  if [ -n "$int8_shapes" ]; then
    python3 "$int8_anchor" --shapes "$int8_shapes" --layouts nn,nt >> "$out/cublas.jsonl"
  fi
  : > "$out/ggml.jsonl"
  if [ -n "$decode_suite" ]; then
    python3 "$anchor" --shapes "$decode_shapes" --dtypes f32,f16,bf16 --layouts nt >> "$out/cublas.jsonl"
    [ -z "$decode_cold" ] || python3 "$anchor" --shapes "$decode_cold" --dtypes f32,f16,bf16 --layouts nt --cold >> "$out/cublas.jsonl"
    # ggml-vulkan: its own MUL_MAT cases (M = 1..5, 8, 512 of N 4096, K 14336), 16-bit weights on the matrix units it
    # picks, f32 weights with plain f32 arithmetic (--matrix none).
    bash "$ggml_anchor" >> "$out/ggml.jsonl"
    bash "$ggml_anchor" --matrix none 'type_a=f32,type_b=f32,m=4096,n=[0-9]+,k=14336,' >> "$out/ggml.jsonl"
  fi
  if [ -n "$layout_shapes" ]; then
    python3 "$anchor" --shapes "$layout_shapes" --dtypes f32,f16,bf16 --layouts nn,nt,tn,tt >> "$out/cublas.jsonl"
    python3 "$anchor" --shapes "$layout_shapes" --dtypes f32,f16,bf16 --layouts nn,nt,tn,tt --cold >> "$out/cublas.jsonl"
  fi
  touch "$out/anchors.done"
fi
if [ ! -e "$out/peak.done" ]; then
  "$bin" peak --copy-bytes "$peak_copy_bytes" --out "$out/nvidia-h200.json" 2>&1 | tee "$out/tune.log"
  touch "$out/peak.done"
fi
[ -z "$shapes" ] || tune --shape "$shapes" --dtype f32,f16,bf16
if [ -n "$cold_shapes" ]; then
  tune --shape "$cold_shapes" --dtype f32,f16,bf16 --cold
fi
if [ -n "$int8_shapes" ]; then
  tune --shape "$int8_shapes" --dtype i8,u8 --layout nn,nt
fi
if [ -n "$decode_suite" ]; then
  tune --shapes-file "$decode_suite" --dtype f32,f16,bf16
  if [ -n "$decode_cold" ]; then
    tune --shape "$decode_cold" --layout nt --dtype f32,f16,bf16 --cold
  fi
fi
if [ -n "$layout_shapes" ]; then
  for cold in "" --cold; do
    tune --shape "$layout_shapes" --layout nn,nt,tn,tt --dtype f32,f16,bf16 $cold
  done
fi
python3 "$root/scripts/ratio.py" "$out/nvidia-h200.json" "$out/cublas.jsonl" --ggml "$out/ggml.jsonl" --json "$out/bench.json" --markdown "$out/bench.md"
