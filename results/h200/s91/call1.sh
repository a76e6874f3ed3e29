#!/usr/bin/env bash
# Session of 2026-12-07 (26), call 1: the f32 models rows that s90's run of scripts/models-bench.sh --dtypes f32 did
# not reach in 480 s (odd-777, aligned-768, decode m1/m4/m8/m16: rest.txt), then the three long-K f32 misses
# (ffn.txt) at --budget 60, to tell a search miss from a space miss. BIN: the binary (default build/gemmtune). Carry [".gpu-kit", the binary].
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
d=$(dirname "$0")
bin=${BIN:-build/gemmtune}
GEMMTUNE_BIN=$bin scripts/models-bench.sh --dtypes f32 --shapes-file $d/rest.txt --out-dir /tmp/rest > /tmp/rest.log 2>&1
cp /tmp/rest/bench.md $OUT/rest.md; cp /tmp/rest/nvidia-h200.json $OUT/rest.json
$bin tune --shapes-file $d/ffn.txt --dtype f32 --budget 60 --out /tmp/ffn.json > /tmp/ffn.log 2>&1
grep -E "screened|screening:|  best:|runner-up|^\[info\] [a-z].*: [0-9x]+ f32" /tmp/ffn.log | grep -v "\[info\] \[" | tee $OUT/ffn.txt
cp /tmp/ffn.json $OUT/ffn.json
