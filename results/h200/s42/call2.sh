#!/usr/bin/env bash
# Session 42, call 2: ready-first with the workers' queue in the search's order (--budget 10, two runs), then the
# ground truths of four benchmark problems (their budget runs come in call 3).
set -uo pipefail
out=${OUT:?}/s42c2
mkdir -p "$out"
snapshot() { (cd "$OUT" && tar czf /tmp/s42c2.tgz --exclude="*/cache-*" --exclude="*/nvcache-*" s42c2 && cp /tmp/s42c2.tgz "$OUT/s42c2.tgz"); }
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
ab prio1 "${p768[@]}"
ab prio2 "${p768[@]}"
python3 scripts/screen_costs.py "$out" | tee "$out/costs.txt"
snapshot
while read -r problem; do
  PROBLEMS="$problem" BUDGETS="" TRUTH_BUDGET=170 scripts/search-quality.sh "$out/sq" 2>&1 | grep -v "^|"
  snapshot
done <<'LIST'
512x512x128x32 f16 nt
96x4096x1024 bf16 nt
3000x1000x2000 f16 nt
2000x500x3000 f32 tn
LIST
