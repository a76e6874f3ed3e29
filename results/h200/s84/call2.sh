#!/usr/bin/env bash
# Session 2026-12-07 (22), call 2. The standard bench (scripts/gpu-bench.sh --budget 8, as s70/bench.sh at 7103c0a)
# with c489bb8 in the binary (the first config screened is the strategy's first: the last bench's 4096^3 i8 rows
# screened one SIMT tile). Carry: [".gpu-kit", "build/gemmtune"]. About 400 s; a cut-off run resumes with --resume.
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
timeout -s INT 560 scripts/gpu-bench.sh --budget 8 --out-dir build/bench "$@" > build/bench.log 2>&1
echo "gpu-bench rc $?" | tee -a $OUT/gpu.txt
tail -5 build/bench.log
cp build/bench.log build/bench/
tar czf $OUT/bench.tgz -C build bench
