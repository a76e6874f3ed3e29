#!/usr/bin/env bash
# Session 2026-12-06 (19), call 1 (unrun there: no machine). Issue 48 steps 34 to 36 (results/h200/notes.md):
# qrowdp's pre-pass with eight invocations a block (s80/step34.patch: build/gemmtune-step34), the parts' scale from
# part 0's words (s80/step35.patch, both decoding families: build/gemmtune-step35) and op(A)'s steps block by block, a
# vector for 4 rows (s80/step36.patch: build/gemmtune-step36), each against main (build/gemmtune), hot,
# qrowdp's configs at M = 1, 2, 4, 8 of 4096 x 14336 nt with each pass's time and qrowdot's M = 1 winners, ROUNDS rounds
# (default 2); then issue 43's mid rows beside 4096^3 (s79/call2.sh, three rounds). Build here first (main checked out,
# its tree clean; scripts/regen-prebuilt.sh after each patch rebuilds the prebuilt modules):
#   git checkout <this commit> -- results/h200/s79 results/h200/s80
#   git apply results/h200/s80/step34.patch && cmake --build build -j2 --target gemmtune
#   cp build/gemmtune build/gemmtune-step34 && git checkout -- kernels src
#   git apply results/h200/s80/step35.patch && scripts/regen-prebuilt.sh && cmake --build build -j2 --target gemmtune
#   cp build/gemmtune build/gemmtune-step35 && git checkout -- kernels src
#   git apply results/h200/s80/step36.patch && scripts/regen-prebuilt.sh && cmake --build build -j2 --target gemmtune
#   cp build/gemmtune build/gemmtune-step36 && git checkout -- kernels src && cmake --build build -j2 --target gemmtune
# (each patch applies to main alone; steps 34 and 36 touch the same lines of quantize_a.comp.)
# Carry: [".gpu-kit", "build/gemmtune", "build/gemmtune-step34", "build/gemmtune-step35", "build/gemmtune-step36"].
# About 7 minutes (ROUNDS=1: about 5; MID=0: the A/B alone).
set -uo pipefail
start=$(date +%s)
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/ab.txt
bench() {  # binary config M dtype
  "$1" bench --config $2 --shape ${3}x4096x14336 --layout nt --dtype $4 --json 2>>$OUT/bench.log |
    python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
p={k: round(v,2) for k,v in b.get('passes_us',{}).items()}
print('M=$3', '$4', '$(basename $1)', '$2', round(b['median_us'],2), 'us', b['disposition'], 'passes', p)" |
    tee -a $OUT/ab.txt
}
for round in $(seq ${ROUNDS:-2}); do  # ROUNDS: the A/B's rounds
  for m in 1 2 4 8; do
    for c in f32q4_wg128_rows4_lanes2 f32q4_wg128_rows8_lanes2 f32q8_wg128_rows4_lanes2; do
      for b in build/gemmtune build/gemmtune-step3{4,5,6}; do bench $b qrowdp_$c $m f32:${c:3:2}_0; done
    done
  done
  for b in build/gemmtune build/gemmtune-step35; do  # step 35 changes qrowdot too
    bench $b qrowdot_f32q4_wg256_rows4_lanes2_splits1 1 f32:q4_0
    bench $b qrowdot_f32q8_wg64_rows2_lanes2_splits1_ahead2 1 f32:q8_0
  done
done
echo "A/B done at $(( $(date +%s) - start ))s" | tee -a $OUT/ab.txt
[ "${MID:-1}" = 1 ] || exit 0  # MID=0: the A/B alone (about 2 minutes a round)
OUT=$OUT bash results/h200/s79/call2.sh
echo "all done at $(( $(date +%s) - start ))s" | tee -a $OUT/ab.txt
