#!/usr/bin/env bash
# Issue 48 (written 2026-12-05 (9), for the next session): step 20's device tests (qrowmma with B exact) and an
# ablation of qrowmma at M = 1 and 8, f32:q4_0 and f32:q8_0, N 4096, K 14336 (notes: "where the open issues stand").
# Before the call, here:
#   git worktree add /tmp/probesrc HEAD && cd /tmp/probesrc && git apply results/h200/s68/qrowmma-ablation.patch
#   cmake -S . -B /tmp/probebuild -DCMAKE_BUILD_TYPE=Release && cmake --build /tmp/probebuild -j2 --target gemmtune
#   for p in 0 1 2 3; do mkdir -p .probe/p$p; for dt in f32q4 f32q8; do ../shared/tools/glslang15/run glslangValidator
#     --target-env vulkan1.3 -V -S comp -DINPUT_$(echo $dt | tr a-z A-Z)=1 -DPROBE=$p -Ikernels
#     -o .probe/p$p/qrowmma_$dt.spv kernels/gemm_qrowmma.comp; done; done
#   (glslang15's path from /tmp/probesrc: /work/shared/tools/glslang15/run), then copy /tmp/probesrc/.probe to the
#   checkout's .probe/ and /tmp/probebuild/gemmtune to .probe/gemmtune.
# Probes: 0 the kernel as it is (to check the probe binary against build/gemmtune), 1 no decoding (the loaded words as
# halves), 2 no products (the decoded values folded into one word), 3 neither (the loaded words folded). The probe
# binary skips the check (ablated kernels compute a wrong product).
# Carry: [".gpu-kit", "build/gemmtune", "build/tests/gpu_tests", ".probe"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s68c1
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 120 build/tests/gpu_tests \
  --gtest_filter='EveryTypeAndLayout/Quantized.DecodingRowsVerifyOnTheMatrix*:QuantizedGemm.OtherFamilies*' \
  > $d/tests.log 2>&1
echo "gpu_tests rc $?" | tee -a $d/gpu.txt
grep -E '^\[  (PASSED|FAILED) |error [0-9.e-]+ > bound' $d/tests.log | head -20 | tee $d/tests.txt
cases=("qrowmma_f32q4_sgk16_frags2_unroll1 f32:q4_0" "qrowmma_f32q4_sgk8_frags2_unroll1_splits2 f32:q4_0"
       "qrowmma_f32q8_sgk16_frags2_unroll1 f32:q8_0")
for round in 1 2; do
  for m in 1 8; do
    for c in "${cases[@]}"; do
      set -- $c
      for probe in plain 0 1 2 3; do
        if [ $probe = plain ]; then bin=build/gemmtune; env=""; else bin=.probe/gemmtune; env=GEMMTUNE_PROBE_SPV_DIR=.probe/p$probe; fi
        env $env $bin bench --config $1 --shape ${m}x4096x14336 --layout nt --dtype $2 --json 2>>$d/bench.log |
          python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$round', 'M=$m', '$1', 'probe=$probe', round(b['median_us'],2), 'us', b['disposition'])" |
          tee -a $d/ablation.txt
      done
    done
  done
done
cp $d/ablation.txt $d/tests.txt $d/gpu.txt $OUT/
tar czf $OUT/call.tgz -C $d .
