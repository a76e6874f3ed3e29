#!/usr/bin/env bash
# Session 43, call 4: the device check made before the search (step 8): the benchmark's eight problems at --budget 10,
# then at --budget 5, the default strategy (adaptive), cold caches each.
set -uo pipefail
out=${OUT:?}/s43c4
mkdir -p "$out"
snapshot() { (cd "$OUT" && tar czf /tmp/s43c4.tgz --exclude="*/cache-*" --exclude="*/nvcache-*" s43c4 && cp /tmp/s43c4.tgz "$OUT/s43c4.tgz"); }
for b in 10 5; do
  while read -r problem; do
    PROBLEMS="$problem" BUDGETS="$b" STRATEGIES=adaptive TRUTH_BUDGET=0 scripts/search-quality.sh "$out" 2>&1 | grep -v "^|"
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
done
