#!/usr/bin/env bash
# Session 43, call 1: 2000x500x3000 f32 tn's ground truth completed (every one of its 6977 candidates), then the
# benchmark's eight problems at --budget 10 with the default strategy (adaptive, a frontier a family).
set -uo pipefail
out=${OUT:?}/s43c1
mkdir -p "$out"
snapshot() { (cd "$OUT" && tar czf /tmp/s43c1.tgz --exclude="*/cache-*" --exclude="*/nvcache-*" s43c1 && cp /tmp/s43c1.tgz "$OUT/s43c1.tgz"); }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > "$out/gpu.txt" 2>&1
PROBLEMS="2000x500x3000 f32 tn" BUDGETS="" TRUTH_BUDGET=390 scripts/search-quality.sh "$out" 2>&1 | grep -v "^|"
snapshot
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
