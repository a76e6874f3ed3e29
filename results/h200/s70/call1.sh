#!/usr/bin/env bash
# Session 2026-12-06 (11), call 1: s69/call3.sh (step 22b's device tests and A/B, issue 48); then, on an H200 only,
# issue 43's full standard bench for the H200 baseline, begun here and finished by `s70/bench.sh --resume` calls
# (s67/bench.sh's recipe, git history at 5c30c1c).
# Carry: [".gpu-kit", "build/gemmtune", "build/tests/gpu_tests"].
set -uo pipefail
start=$(date +%s)
bash results/h200/s69/call3.sh
if grep -q H200 /tmp/s69c3/gpu.txt; then
  left=$((560 - ($(date +%s) - start)))
  timeout -s INT $left scripts/gpu-bench.sh --budget 8 --out-dir build/bench > build/bench.log 2>&1
  echo "gpu-bench rc $? after ${left}s" | tee -a $OUT/gpu.txt
  tail -5 build/bench.log
  cp build/bench.log build/bench/
  tar czf $OUT/bench.tgz -C build bench
fi
