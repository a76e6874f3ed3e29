#!/usr/bin/env bash
# Issue 41 call 2: scripts/search-quality.sh on three problems (budgets 5 and 10, both orders, cold caches; the
# ground truth in a 200 s screen), with this tree's binary (workers started with the tuner).
set -uo pipefail
out=${OUT:-/tmp/s41-out}
work=/tmp/s41-sq
mkdir -p "$out" "$work"
PROBLEMS="1000x3000x1000 i8 nt
333x1111x555 f32 nn
8192x256x512 bf16 nn" BUDGETS="5 10" TRUTH_BUDGET=200 scripts/search-quality.sh "$work"
grep -h "build worker [0-9]*: ready" "$work"/*.err | head -20
tar czf "$out/s41-call2.tgz" -C "$work" .
