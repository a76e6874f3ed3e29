#!/usr/bin/env bash
# Session 42, call 3: the benchmark's budget runs on its eight problems (their ground truths are in
# tests/data/search): --budget 10 with both strategies, then the default budget (90 s) with adaptive on three.
set -uo pipefail
out=${OUT:?}/s42c3
mkdir -p "$out"
snapshot() { (cd "$OUT" && tar czf /tmp/s42c3.tgz --exclude="*/cache-*" --exclude="*/nvcache-*" s42c3 && cp /tmp/s42c3.tgz "$OUT/s42c3.tgz"); }
while read -r problem; do
  PROBLEMS="$problem" BUDGETS="10" TRUTH_BUDGET=0 scripts/search-quality.sh "$out" 2>&1 | grep -v "^|"
  snapshot
done <<'LIST'
768x2304x768 f16 nt
1000x3000x1000 i8 nt
333x1111x555 f32 nn
512x512x128x32 f16 nt
8192x256x512 bf16 nn
3000x1000x2000 f16 nt
96x4096x1024 bf16 nt
2000x500x3000 f32 tn
LIST
while read -r problem; do
  PROBLEMS="$problem" BUDGETS="90" STRATEGIES=adaptive TRUTH_BUDGET=0 scripts/search-quality.sh "$out" 2>&1 | grep -v "^|"
  snapshot
done <<'LIST'
8192x256x512 bf16 nn
333x1111x555 f32 nn
1000x3000x1000 i8 nt
LIST
