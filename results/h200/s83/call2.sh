#!/usr/bin/env bash
# Session 2026-12-07 (21), call 2. The standard bench's 8-bit integer tunes again with c489bb8 (the first config
# screened is the strategy's first): the bench of call 1 (s70/bench.sh at e2ee016) screened one config at 4096^3 i8,
# a SIMT tile built before the matrix units' configs, when the host reference took the problem's budget. Same
# command as scripts/gpu-bench.sh's int8 step, beside cuBLAS's int8 product. Carry: [".gpu-kit", "build/gemmtune"].
# About 1 minute.
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/int8.txt
python3 scripts/cublas_int8_anchor.py --shapes 4096x4096x4096,1024x768x3072 --layouts nn,nt > $OUT/cublas-int8.jsonl 2>>$OUT/int8.log
build/gemmtune tune --shape 4096x4096x4096,1024x768x3072 --dtype i8,u8 --layout nn,nt --budget 8 \
  --out /tmp/int8.json > $OUT/int8-tune.txt 2>&1
grep -E "evaluated|best:" $OUT/int8-tune.txt | tee -a $OUT/int8.txt
cat $OUT/cublas-int8.jsonl >> $OUT/int8.txt
