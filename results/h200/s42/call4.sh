#!/usr/bin/env bash
# Session 42, call 4: the adaptive order with a frontier a family (the new default strategy): the benchmark's eight
# problems at --budget 10, then the default budget (90 s) on three not run at it in call 3.
set -uo pipefail
out=${OUT:?}/s42c4
mkdir -p "$out"
snapshot() { (cd "$OUT" && tar czf /tmp/s42c4.tgz --exclude="*/cache-*" --exclude="*/nvcache-*" s42c4 && cp /tmp/s42c4.tgz "$OUT/s42c4.tgz"); }
while read -r problem; do
  PROBLEMS="$problem" BUDGETS="10" STRATEGIES=adaptive TRUTH_BUDGET=0 scripts/search-quality.sh "$out" 2>&1 | grep -v "^|"
  snapshot
done <<'LIST'
2000x500x3000 f32 tn
768x2304x768 f16 nt
1000x3000x1000 i8 nt
333x1111x555 f32 nn
512x512x128x32 f16 nt
8192x256x512 bf16 nn
3000x1000x2000 f16 nt
96x4096x1024 bf16 nt
LIST
while read -r problem; do
  PROBLEMS="$problem" BUDGETS="90" STRATEGIES=adaptive TRUTH_BUDGET=0 scripts/search-quality.sh "$out" 2>&1 | grep -v "^|"
  snapshot
done <<'LIST'
2000x500x3000 f32 tn
3000x1000x2000 f16 nt
768x2304x768 f16 nt
LIST
