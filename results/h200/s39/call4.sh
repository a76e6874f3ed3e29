#!/usr/bin/env bash
# Probe J (notes, session of 2026-12-02, third), one call: each target's winner timed by four probe builds (base,
# noload, nobarrier, both; unverified where the probe breaks the result), the small grid also without its reduce pass,
# cuBLAS f32 in the same call.   Carry .gpu-kit and build-probe/.   source .gpu-kit/activate.sh && s39/call4.sh $OUT
set -uo pipefail
out=${1:?usage: call4.sh OUT_DIR}
timeout 90 python3 .gpu-kit/cublas_anchor.py --dtypes f32 --layouts nn,nt \
  --shapes 4096x4096x4096,2048x2048x2048,512x4096x14336,128x768x3072 > "$out/cublas.jsonl"
grep -h '"us"' "$out/cublas.jsonl" | cut -c1-160
w=warptile_f32_bm128_bn128_bk8_wm64_wn32_tm8_tn8_splits1
cases="4096x4096x4096:nn:${w}_ahead1 2048x2048x2048:nn:${w}_ahead1 2048x2048x2048:nt:$w 512x4096x14336:nt:$w
  128x768x3072:nn:warptile_f32_bm32_bn64_bk8_wm32_wn32_tm8_tn4_splits16_reduce1_ahead1"
export GEMMTUNE_PROBE_UNVERIFIED=1
for c in $cases; do
  IFS=: read -r shape layout config <<< "$c"
  for b in base noload nobarrier both base; do
    for reduce in keep drop; do
      [[ $reduce == drop && $config != *reduce1* ]] && continue
      r=$( ( [[ $reduce == drop ]] && export GEMMTUNE_PROBE_NO_REDUCE=1; build-probe/$b bench --shape $shape --layout $layout \
        --dtype f32 --config $config --samples 10 --json 2>/dev/null) | python3 -c 'import json,sys; d=json.load(sys.stdin)
d=d["results"][0]; print(d["median_us"], d["disposition"], d["pipeline_statistics"].get("Register Count"))')
      echo "$shape $layout $b reduce-$reduce $r"
    done
  done
done | tee "$out/probe.txt"
