#!/usr/bin/env bash
# Issue 41 call 1 (step 1): the tuner's speed on shapes in no suite, this tree's binary. Each run prints its
# summary's "screening:" line (configs a second and where a config's time went); journals and tables in the tar.
set -uo pipefail
bin=./build/gemmtune
out=${OUT:-/tmp/s40-out}
work=/tmp/s40
mkdir -p "$out" "$work"
export GEMMTUNE_CACHE_DIR=$work/cache
run() {
  local name=$1
  shift
  local start=$(date +%s.%N)
  "$bin" "$@" --out "$work/$name.json" >"$work/$name.txt" 2>"$work/$name.err"
  local rc=$?
  printf '== %s (rc %d, %.1f s): %s\n' "$name" "$rc" "$(echo "$(date +%s.%N) - $start" | bc)" "$*"
  grep -E "evaluated|screening:|  best:" "$work/$name.txt"
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
# The first problem of the run: nothing built yet.
run a_b10_fresh --shape 768x2304x768 --dtype f16 --layout nt --budget 10
# Again: what the first run built is in the pipeline cache; the configs past it are built now.
run a_b10_again --shape 768x2304x768 --dtype f16 --layout nt --budget 10
run a_b10_host --shape 768x2304x768 --dtype f16 --layout nt --budget 10 --host-check
run a_b60 --shape 768x2304x768 --dtype f16 --layout nt --budget 60
run b_b10 --shape 3000x1000x2000 --dtype f16 --layout nt --budget 10
run c_b30 --shape 512x512x128x32 --dtype f16 --layout nt --budget 30
run d_f32_b20 --shape 4096x4096x4096 --budget 20
run e_i8_b10 --shape 1000x3000x1000 --dtype i8 --layout nt --budget 10
tar czf "$out/s40-call1.tgz" -C "$work" --exclude cache .
