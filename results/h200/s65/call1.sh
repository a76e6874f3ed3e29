#!/usr/bin/env bash
# Issue 48 step 16's count (written 2026-12-05 (7), for the next session): an ablation of qrowdot at M = 1 and 8,
# q4_0 and q8_0, N 4096 and 16384, K 14336 (results/h200/notes.md, "Probe (before step 16)"). Before the call, here:
#   git worktree add /tmp/probesrc HEAD && cd /tmp/probesrc && git apply results/h200/s65/qrowdot-ablation.patch
#   cmake -S . -B /tmp/probebuild -DCMAKE_BUILD_TYPE=Release && cmake --build /tmp/probebuild -j2 --target gemmtune
#   for p in 0 1 2 3; do mkdir -p .probe/p$p; for dt in f32q4 f32q8; do glslangValidator -V --target-env vulkan1.1
#     -S comp -DINPUT_$(echo $dt | tr a-z A-Z)=1 -DPROBE=$p -Ikernels -o .probe/p$p/qrowdot_$dt.spv
#     kernels/gemm_qrowdot.comp; done; done
#   then copy /tmp/probesrc/.probe to the checkout's .probe/ and /tmp/probebuild/gemmtune to .probe/gemmtune.
# Probes: 0 the kernel as it is (the patch's module, to check it matches build/gemmtune), 1 the quarters' words folded
# into the sums (no decoding, no products, no op(A)), 2 op(A) constant (no loads of op(A)), 3 the words and op(A)
# folded (no decoding, no products). Ablated kernels compute a wrong product: the probe binary skips the check.
# Carry: [".gpu-kit", "build/gemmtune", ".probe"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s65c1
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
cases=(
  "qrowdot_f32q4_wg256_rows8_lanes4_splits1 1 f32:q4_0" "qrowdot_f32q4_wg256_rows4_lanes4_splits1 1 f32:q4_0"
  "qrowdot_f32q8_wg256_rows2_lanes4_splits1 1 f32:q8_0" "qrowdot_f32q4_wg64_rows4_lanes4_splits1_ahead2 8 f32:q4_0"
)
for round in 1 2; do
  for n in 4096 16384; do
    for c in "${cases[@]}"; do
      set -- $c
      for probe in plain 0 1 2 3; do
        if [ $probe = plain ]; then bin=build/gemmtune; env=""; else bin=.probe/gemmtune; env=GEMMTUNE_PROBE_SPV_DIR=.probe/p$probe; fi
        env $env $bin bench --config $1 --shape ${2}x${n}x14336 --layout nt --dtype $3 --json 2>>$d/bench.log |
          python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$round', 'N=$n', 'M=$2', '$1', 'probe=$probe', round(b['median_us'],2), 'us', b['disposition'])" |
          tee -a $d/ablation.txt
      done
    done
  done
done
cp $d/ablation.txt $d/gpu.txt $OUT/
tar czf $OUT/call.tgz -C $d .
