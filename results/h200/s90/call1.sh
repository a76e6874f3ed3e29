#!/usr/bin/env bash
# Session of 2026-12-07 (25), call 1: issue 48 step 41's risk, probed before building it. Does the decoding pass run
# beside the main pass when no barrier parts them? build/gemmtune-overlap is this commit with
# results/h200/s90/overlap-probe.patch applied: GEMMTUNE_PREPASS_OVERLAP=1 records the pre-pass then the main pass
# with no barrier between them, 2 the main pass then the pre-pass (timing only: the plane of the previous run holds
# the same values, so what the main pass reads is not what is probed). At 512x4096x14336 nt, hot, two rounds, beside
# the dense f16 tile. Carry: [".gpu-kit", "build/gemmtune-overlap"]. About 2 minutes.
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
shape=512x4096x14336
configs="coopmat_f16_bm128_bn128_bk64_sgm2_sgn4_splits1"
for t in f16q4 f16q8; do configs="$configs coopmat_${t}_bm128_bn128_bk64_sgm2_sgn4_splits1_prepass1"; done
for round in 1 2; do
  for mode in 0 1 2; do
    for c in $configs; do
      GEMMTUNE_PREPASS_OVERLAP=$mode build/gemmtune-overlap bench --config $c --shape $shape --layout nt --json \
        2>>/tmp/bench.log | python3 -c "
import json,sys
r=json.load(sys.stdin)['results'][0]
print('r$round mode$mode', r['config'], r['disposition'], round(r.get('median_us') or 0, 1), r.get('passes_us', ''))
" | tee -a $OUT/overlap.txt
    done
  done
done
