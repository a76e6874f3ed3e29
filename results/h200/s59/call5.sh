#!/usr/bin/env bash
# Session of 2026-12-05 (4), call 5 (issue 48 step 14): qrowdot's quarters decode codes as units (no subtract a code,
# the bias taken out once a row of op(A)). A/B: BASE = build/base/gemmtune, the binary of c4a16fc (if it is gone:
# git worktree add /tmp/base c4a16fc && cmake -S /tmp/base -B /tmp/base/build -DCMAKE_BUILD_TYPE=Release &&
# cmake --build /tmp/base/build --target gemmtune, then copy), NEW = build/gemmtune; the decoding winners of the
# session before's call 4 on both, two rounds alternating, hot; then NEW's decoding tune beside ggml-vulkan.
# Carry: [".gpu-kit", "build/gemmtune", "build/base/gemmtune"].
set -uo pipefail
source .gpu-kit/activate.sh
source results/h200/s59/common.sh
d=/tmp/s59c5
mkdir -p $d
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee $d/gpu.txt
cases=(
  "qrowdot_f32q4_wg256_rows4_lanes4_splits1 1 f32:q4_0" "qrowdot_f32q4_wg64_rows4_lanes4_splits1_ahead4 2 f32:q4_0"
  "qrowdot_f32q4_wg64_rows4_lanes4_splits1_ahead4 5 f32:q4_0" "qrowdot_f32q4_wg64_rows8_lanes4_splits1 8 f32:q4_0"
  "qrowdot_f32q8_wg256_rows2_lanes4_splits1 1 f32:q8_0" "qrowdot_f32q8_wg256_rows4_lanes4_splits1 5 f32:q8_0"
  "qrowdot_f32q8_wg128_rows4_lanes4_splits1_ahead2 8 f32:q8_0"
)
for round in 1 2; do
  for bin in base new; do
    exe=build/gemmtune; [ $bin = base ] && exe=build/base/gemmtune
    for c in "${cases[@]}"; do
      set -- $c
      $exe bench --config $1 --shape ${2}x4096x14336 --layout nt --dtype $3 --json 2>>$d/bench.log | python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$round', '$bin', 'M=$2', '$3', '$1', round(b['median_us'],2), 'us', b['disposition'])" | tee -a $d/ab.txt
    done
  done
done
cp $d/ab.txt $OUT/
build/gemmtune tune --shape 1x4096x14336,2x4096x14336,5x4096x14336,8x4096x14336 --layout nt --dtype f32:q4_0,f32:q8_0 \
  --budget 12 --out $d/decode.json --json > $d/decode.out 2> $d/decode.log
tune_summary $d/decode.out | tee -a $d/summary.txt
.gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $d/ggml.jsonl 2> $d/ggml.log
grep -v '"M": 512' $d/ggml.jsonl | tee -a $d/summary.txt
cp $d/summary.txt $OUT/
tar czf $OUT/call.tgz -C $d .
