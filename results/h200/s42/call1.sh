#!/usr/bin/env bash
# Session 42, call 1: the keeper and ready-first at --budget 10 (A/B), then two ground truths (their budget runs come in a later call).
set -uo pipefail
out=${OUT:?}/s42c1
mkdir -p "$out"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv | tee "$out/gpu.txt"
ab() {
  local name=$1; shift
  local start=$(python3 -c 'import time; print(time.time())')
  GEMMTUNE_CACHE_DIR=$out/cache-$name __GL_SHADER_DISK_CACHE_PATH=$out/nv-$name \
    ./build/gemmtune -v "$@" --out "$out/$name.json" >"$out/$name.txt" 2>"$out/$name.err"
  echo "== $name rc $? $(python3 -c "import time; print(round(time.time() - $start, 1))") s: $*"
  grep -E "evaluated|screening:|  best:" "$out/$name.txt"
  rm -rf "$out/cache-$name" "$out/nv-$name"
}
p768=(--shape 768x2304x768 --dtype f16 --layout nt --budget 10 --strategy adaptive)
ab keep1 "${p768[@]}"
ab idle1 "${p768[@]}" --idle-between
ab keep2 "${p768[@]}"
ab idle2 "${p768[@]}" --idle-between
ab k3000 --shape 3000x1000x2000 --dtype f16 --layout nt --budget 10 --strategy adaptive
python3 scripts/screen_costs.py "$out" | tee "$out/costs.txt"
(cd "$OUT" && tar czf /tmp/s42c1.tgz s42c1 && cp /tmp/s42c1.tgz "$OUT/s42c1.tgz")
PROBLEMS="512x512x128x32 f16 nt
96x4096x1024 bf16 nt" BUDGETS="" TRUTH_BUDGET=170 scripts/search-quality.sh "$out/sq" 2>&1 | tail -40
(cd "$OUT" && tar czf /tmp/s42c1.tgz --exclude="*/cache-*" --exclude="*/nvcache-*" s42c1 && cp /tmp/s42c1.tgz "$OUT/s42c1.tgz")
rm -rf "$out"
