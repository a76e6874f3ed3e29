#!/usr/bin/env bash
# Issue 41 call 1 (step 2): the tuner's speed with build workers, this tree's binary, on shapes in no suite. Each
# run prints its summary's "evaluated" and "screening:" lines and the workers' count line (-v); journals, tables and
# logs in the tar. Fresh caches where the name says so; "again" reuses the cache file the run before it saved.
set -uo pipefail
bin=./build/gemmtune
out=${OUT:-/tmp/s41-out}
work=/tmp/s41
mkdir -p "$out" "$work"
now() { python3 -c 'import time; print(time.time())'; }
run() {
  local name=$1 cache=$2
  shift 2
  local start=$(now)
  GEMMTUNE_CACHE_DIR=$work/cache-$cache "$bin" -v "$@" --out "$work/$name.json" >"$work/$name.txt" 2>"$work/$name.err"
  local rc=$?
  printf '== %s (rc %d, %.1f s, cache %s): %s\n' "$name" "$rc" "$(python3 -c "print($(now) - $start)")" "$cache" "$*"
  grep -E "evaluated|screening:|  best:" "$work/$name.txt"
  grep -E "build workers: [0-9]+ builds|warn|error" "$work/$name.err" | head -5
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
nproc
a="--shape 768x2304x768 --dtype f16 --layout nt"
# In-process builds, the step-1 baseline, in this call.
run a_b10_inproc none $a --budget 10 --build-workers 0 --no-pipeline-cache
# Workers, nothing built before.
run a_b10_fresh 1 $a --budget 10
# The same again: the cache file holds what the first run built.
run a_b10_again 1 $a --budget 10
run a_b60_fresh 2 $a --budget 60
run b_b10 3 --shape 3000x1000x2000 --dtype f16 --layout nt --budget 10
run c_b30 3 --shape 512x512x128x32 --dtype f16 --layout nt --budget 30
run d_f32_b20 3 --shape 4096x4096x4096 --budget 20
run e_i8_b10 3 --shape 1000x3000x1000 --dtype i8 --layout nt --budget 10
# The adaptive order at the same budget, fresh cache, then the whole space of the problem (ground truth: every
# config screened, 10 finalists).
run a_b10_adaptive 5 $a --budget 10 --strategy adaptive
run a_whole 5 $a --budget 400 --finalists 10
python3 results/h200/s40/costs.py "$work"
tar czf "$out/s41-call1.tgz" -C "$work" --exclude 'cache-*' .
