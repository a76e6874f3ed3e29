#!/usr/bin/env bash
# The real-model suite beside cuBLAS (issue 43), rerunnable: cuBLAS first (scripts/cublas_batched_anchor.py, batched
# problems included), then gemmtune on the same shapes file, then the joined table. Run on the GPU machine from the
# checkout with .gpu-kit/ and build/gemmtune present (see ../shared/gpu-kit/README.md):
#   source .gpu-kit/activate.sh && scripts/models-bench.sh [--budget SECONDS] [--dtypes LIST] [--out-dir DIR]
#                                                          [--shapes-file FILE]
# --budget is gemmtune's per shape, shared by its dtypes (default 15: the 38 problems of one dtype then take about 9.5
# minutes with cuBLAS, past a 480 s device call; --budget 8 fits one dtype in about 5); --dtypes default f16,bf16,f32;
# the shapes file defaults to configs/shapes/models.txt. Writes DIR/cublas.jsonl, DIR/nvidia-h200.json (the tuning
# table), DIR/tune.log, DIR/bench.md and DIR/bench.json (DIR defaults to results/h200/models). CUBLAS_BATCHED_ANCHOR
# and GEMMTUNE_BIN replace the anchor and the binary. Stopped early (INT or TERM), it still joins the problems tuned so
# far and exits 1, naming the others.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
budget=15
dtypes=f16,bf16,f32
out=$root/results/h200/models
shapes=$root/configs/shapes/models.txt
while [ $# -gt 0 ]; do
  case "$1" in
    --budget) budget=$2; shift 2 ;;
    --dtypes) dtypes=$2; shift 2 ;;
    --out-dir) out=$2; shift 2 ;;
    --shapes-file) shapes=$2; shift 2 ;;
    *) echo "models-bench.sh: unknown argument '$1' (expected --budget SECONDS, --dtypes LIST, --out-dir DIR or --shapes-file FILE)" >&2; exit 2 ;;
  esac
done
bin=${GEMMTUNE_BIN:-$root/build/gemmtune}
anchor=${CUBLAS_BATCHED_ANCHOR:-$root/scripts/cublas_batched_anchor.py}
mkdir -p "$out"
python3 "$anchor" "$shapes" --dtypes "$dtypes" > "$out/cublas.jsonl"
# gemmtune writes the table as it goes: a run stopped early (INT or TERM, a call's time limit) stops the tune, which
# keeps what it measured, and still joins it; the report then names the problems the table lacks and exits 1.
"$bin" --shapes-file "$shapes" --dtype "$dtypes" --budget "$budget" --out "$out/nvidia-h200.json" \
  > >(tee "$out/tune.log") 2>&1 &
tune=$!
trap 'kill -INT "$tune" 2>/dev/null || true' INT TERM
status=0
wait "$tune" || status=$?
while kill -0 "$tune" 2>/dev/null; do  # the wait above ended for the trap: the tune is still saving
  status=0
  wait "$tune" || status=$?
done
trap - INT TERM
joined=0
python3 "$root/scripts/models_bench.py" "$out/nvidia-h200.json" "$out/cublas.jsonl" --markdown "$out/bench.md" \
  --json "$out/bench.json" || joined=$?
[ "$joined" -ne 0 ] && exit "$joined"
exit "$status"
