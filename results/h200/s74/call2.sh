#!/usr/bin/env bash
# Issue 43, the prior of the session of 2026-12-06 (15) on the device (results/h200/notes.md, "the screening prior's
# subgroups", "splitk's screening prior", "coopmat2 one config a round"): four problems in no ground truth, each
# tuned at --budget 10 (adaptive, cold caches) beside a 90-s screen of it as its ground truth: two short ones
# (1536x1536x1024 f16 nn, 640x5120x1536 bf16 nt: the prediction, within 0.95 of the optimum) and two where the
# subgroups rule keeps 2 x 2 first (2048^3 f16 nn; 2048x2048x128x32 f16 nt, attention scores: a short k loop), whose
# truths place the rule's turn. About 8 minutes. Carry: [".gpu-kit", "build/gemmtune"].
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
d=/tmp/s74c2
PROBLEMS="1536x1536x1024 f16 nn
640x5120x1536 bf16 nt
2048x2048x2048 f16 nn
2048x2048x128x32 f16 nt" BUDGETS=10 STRATEGIES=adaptive TRUTH_BUDGET=90 \
  scripts/search-quality.sh $d > $OUT/search.txt 2>&1
cp $d/search-quality.md $OUT/ 2>/dev/null
for t in $d/*.truth.json; do
  python3 scripts/search_quality.py --compact $t.journal.jsonl $OUT/$(basename $t .truth.json).json
done
tar -czf /tmp/s74c2.tgz -C $d . && cp /tmp/s74c2.tgz $OUT/
