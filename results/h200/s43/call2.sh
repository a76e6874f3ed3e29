#!/usr/bin/env bash
# Session 43, call 2: a traced --budget 10 run on two problems (the workers' queue and the ready-first picks, a
# build of this commit with trace lines), then the default budget (90 s) on the five problems not run at it.
set -uo pipefail
out=${OUT:?}/s43c2
mkdir -p "$out"
snapshot() { (cd "$OUT" && tar czf /tmp/s43c2.tgz --exclude="*/cache-*" --exclude="*/nvcache-*" s43c2 && cp /tmp/s43c2.tgz "$OUT/s43c2.tgz"); }
while read -r problem; do
  GT_TRACE=1 GEMMTUNE=./build-trace/gemmtune PROBLEMS="$problem" BUDGETS="10" STRATEGIES=adaptive TRUTH_BUDGET=0 \
    scripts/search-quality.sh "$out/trace" 2>&1 | grep -v "^|"
done <<'LIST'
3000x1000x2000 f16 nt
512x512x128x32 f16 nt
LIST
snapshot
while read -r problem; do
  PROBLEMS="$problem" BUDGETS="90" STRATEGIES=adaptive TRUTH_BUDGET=0 scripts/search-quality.sh "$out" 2>&1 | grep -v "^|"
  snapshot
done <<'LIST'
3000x1000x2000 f16 nt
512x512x128x32 f16 nt
2000x500x3000 f32 tn
768x2304x768 f16 nt
96x4096x1024 bf16 nt
LIST
