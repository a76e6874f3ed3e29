#!/usr/bin/env bash
# Issue 10 on the H200, one call (written before any H200 time was left in the session that built the kernel):
# the 8-bit integer tests on the device (every family that qualifies there, the coopmat integer kernel included:
# extremes with zero points at K = 4096, wrapping past int32, odd shapes in every layout), then the sweep of
# 4096x4096x4096 and 1024x768x3072 in i8 and u8 with f16 beside them and cuBLAS f16 and int8 in the same call.
# Carry .gpu-kit, build/gemmtune and build/tests/gpu_tests:
#   source .gpu-kit/activate.sh && results/h200/int8/run.sh "$OUT/int8"
set -uo pipefail
out=${1:?usage: run.sh OUT_DIR}
bin=./build/gemmtune
mkdir -p "$out"
"$bin" devices > "$out/devices.txt" 2>&1
# No validation layer on that machine (see tests/gpu/lavapipe_env.cpp); never set in CI.
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 240 ./build/tests/gpu_tests --gtest_filter='*Integer*' > "$out/integer-tests.log" 2>&1
echo "integer tests exit $?" >> "$out/integer-tests.log"
python3 .gpu-kit/cublas_anchor.py --shapes 4096x4096x4096,1024x768x3072 --dtypes f16 > "$out/cublas.jsonl"
python3 scripts/cublas_int8_anchor.py --shapes 4096x4096x4096,1024x768x3072 >> "$out/cublas.jsonl" 2> "$out/cublas-int8.log"
"$bin" --shape 4096x4096x4096,1024x768x3072 --dtype f16,i8,u8 --budget 60 --out "$out/int8.json" > "$out/tune.log" 2>&1
python3 scripts/ratio.py "$out/int8.json" "$out/cublas.jsonl" --json "$out/bench.json" --markdown "$out/bench.md"
