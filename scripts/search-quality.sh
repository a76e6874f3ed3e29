#!/usr/bin/env bash
# The search-quality benchmark (issue 41): each problem (in no suite) tuned at each budget and strategy with cold
# caches (gemmtune's pipeline cache and the NVIDIA driver's, each run its own), then screened whole for the ground
# truth (every candidate, the best FINALISTS sampled in full); scripts/search_quality.py reports each run's fraction
# of the optimum. Run on the GPU machine from the checkout:
#   source .gpu-kit/activate.sh && scripts/search-quality.sh OUT_DIR
# PROBLEMS (one "MxNxK[xB] dtype layout" a line), BUDGETS, STRATEGIES, TRUTH_BUDGET and FINALISTS override the
# defaults (TRUTH_BUDGET=0: no ground truth run, for problems whose truth is in tests/data/search; the report then
# takes them from there: scripts/search_quality.py OUT_DIR --truths tests/data/search). OUT_DIR gets the tables, journals and logs, and search-quality.md.
set -uo pipefail
out=${1:?usage: scripts/search-quality.sh OUT_DIR}
bin=${GEMMTUNE:-./build/gemmtune}
budgets=${BUDGETS-5 10 30}  # empty: the ground truths alone
strategies=${STRATEGIES:-screen adaptive}
truth_budget=${TRUTH_BUDGET:-400}
finalists=${FINALISTS:-8}
problems=${PROBLEMS:-"768x2304x768 f16 nt
1000x3000x1000 i8 nt
333x1111x555 f32 nn
512x512x128x32 f16 nt
8192x256x512 bf16 nn
3000x1000x2000 f16 nt
96x4096x1024 bf16 nt
2000x500x3000 f32 tn"}
mkdir -p "$out"
now() { python3 -c 'import time; print(time.time())'; }
tune() {
  local name=$1
  shift
  local start=$(now)
  GEMMTUNE_CACHE_DIR=$out/cache-$name __GL_SHADER_DISK_CACHE_PATH=$out/nvcache-$name \
    "$bin" -v "$@" --out "$out/$name.json" >"$out/$name.txt" 2>"$out/$name.err"
  printf '== %s (rc %d, %.1f s): %s\n' "$name" "$?" "$(python3 -c "print($(now) - $start)")" "$*"
  grep -E "evaluated|screening:|  best:" "$out/$name.txt"
  rm -rf "$out/cache-$name" "$out/nvcache-$name"
}
while read -r shape dtype layout; do
  [ -n "$shape" ] || continue
  p="${shape}_${dtype}_${layout}"
  args=(--shape "$shape" --dtype "$dtype" --layout "$layout")
  for strategy in $strategies; do
    for b in $budgets; do tune "$p.$strategy.b$b" "${args[@]}" --strategy "$strategy" --budget "$b"; done
  done
  [ "$truth_budget" = 0 ] || tune "$p.truth" "${args[@]}" --budget "$truth_budget" --finalists "$finalists"
done <<<"$problems"
python3 "$(dirname "$0")/search_quality.py" "$out" | tee "$out/search-quality.md"
