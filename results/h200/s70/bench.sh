#!/usr/bin/env bash
# Issue 43's standard bench on an H200, continued (s70/call1.sh begins it): with the last call's tar unpacked here
# (`tar xzf FILES_AT/bench.tgz -C build`), `bash results/h200/s70/bench.sh --resume`, carrying build/bench.
# Carry: [".gpu-kit", "build/gemmtune", "build/bench"].
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
timeout -s INT 540 scripts/gpu-bench.sh --budget 8 --out-dir build/bench "$@" > build/bench.log 2>&1
echo "gpu-bench rc $?" | tee -a $OUT/gpu.txt
tail -5 build/bench.log
cp build/bench.log build/bench/
tar czf $OUT/bench.tgz -C build bench
