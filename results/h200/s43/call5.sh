#!/usr/bin/env bash
# Session 43, call 5: the default budget (90 s) on the three problems last run at it the session before, with this
# session's binary (commit ba70f56).
set -uo pipefail
out=${OUT:?}/s43c5
mkdir -p "$out"
snapshot() { (cd "$OUT" && tar czf /tmp/s43c5.tgz --exclude="*/cache-*" --exclude="*/nvcache-*" s43c5 && cp /tmp/s43c5.tgz "$OUT/s43c5.tgz"); }
while read -r problem; do
  PROBLEMS="$problem" BUDGETS="90" STRATEGIES=adaptive TRUTH_BUDGET=0 scripts/search-quality.sh "$out" 2>&1 | grep -v "^|"
  snapshot
done <<'LIST'
1000x3000x1000 i8 nt
8192x256x512 bf16 nn
333x1111x555 f32 nn
LIST
