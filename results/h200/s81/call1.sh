#!/usr/bin/env bash
# Session 2026-12-07 (20), call 1. Issue 48 after step 34 (main) and step 37 (the `prepass0` configs): ggml-vulkan's
# q8_0 / q4_0 MUL_MAT cases as they run, qrowdp's and qrowdot's configs hot at M = 1..5, 8 of 4096 x 14336 nt, then
# the cold decoding tune (the targets' measure); issue 43: t512 gate-up (512x14336x4096 f16 nt, 0.78-0.84 of the
# square case) tuned from scratch for 2 minutes, its winner and the table's config beside cuBLAS. Carry:
# [".gpu-kit", "build/gemmtune"]. About 9 minutes.
set -uo pipefail
start=$(date +%s)
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/ab.txt
timeout 30 build/gemmtune peak --json > /tmp/peak.json 2>/dev/null
timeout 60 .gpu-kit/ggml_anchor.sh 'type_a=(q8_0|q4_0)' > $OUT/ggml-mmvq.jsonl 2>/dev/null
bench() {  # config M dtype [--cold]
  build/gemmtune bench --config $1 --shape ${2}x4096x14336 --layout nt --dtype $3 ${4:-} --json 2>>$OUT/bench.log |
    python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
p={k: round(v,2) for k,v in b.get('passes_us',{}).items()}
print('M=$2', '$3', '$1', '${4:-hot}', round(b['median_us'],2), 'us', b['disposition'], 'passes', p)" | tee -a $OUT/ab.txt
}
for m in ${MS:-1 2 3 4 5 8}; do  # MS: the hot A/B's M values
  for c in wg128_rows4_lanes2 wg128_rows8_lanes2 wg256_rows4_lanes2_groups2; do bench qrowdp_f32q4_$c $m f32:q4_0; done
  bench qrowdp_f32q8_wg128_rows4_lanes2 $m f32:q8_0
  # Step 37: the same configs quantizing op(A) in the main pass.
  for c in wg128_rows4_lanes2 wg128_rows8_lanes2; do bench qrowdp_f32q4_${c}_prepass0 $m f32:q4_0; done
  bench qrowdp_f32q8_wg128_rows4_lanes2_prepass0 $m f32:q8_0
done
bench qrowdot_f32q4_wg256_rows4_lanes2_splits1 1 f32:q4_0
bench qrowdot_f32q8_wg64_rows2_lanes2_splits1_ahead2 1 f32:q8_0
echo "hot done at $(( $(date +%s) - start ))s" | tee -a $OUT/ab.txt
# TUNE_S: the cold tune's seconds; GATEUP_TUNE=0: gate-up's configs without its tune.
timeout -s INT ${TUNE_S:-210} build/gemmtune tune --shape 1x4096x14336,2x4096x14336,3x4096x14336,4x4096x14336,5x4096x14336,8x4096x14336 \
  --layout nt --dtype f32:q8_0,f32:q4_0 --budget 10 --cold --out /tmp/decode-cold.json > $OUT/decode-cold.txt 2>&1
echo "cold tune done at $(( $(date +%s) - start ))s" | tee -a $OUT/ab.txt
[ "${GATEUP_TUNE:-1}" = 1 ] && timeout -s INT 130 build/gemmtune tune --shape 512x14336x4096 --layout nt --dtype f16 --budget 80 \
  --out /tmp/gateup.json > $OUT/gateup.txt 2>&1
python3 scripts/cublas_batched_anchor.py results/h200/s79/mid-shapes.txt --dtypes f16 > /tmp/cublas.jsonl 2>/dev/null
for c in coopmat_f16_bm128_bn128_bk64_sgm2_sgn4_splits1 coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits1 \
    $(python3 -c "import json; print(json.load(open('/tmp/gateup.json'))['entries'][0]['best']['name'])" 2>/dev/null); do
  build/gemmtune bench --config $c --shape 512x14336x4096 --layout nt --dtype f16 --json 2>>$OUT/bench.log |
    python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
cu=[json.loads(l)['us'] for l in open('/tmp/cublas.jsonl') if json.loads(l)['name']=='llama3-8b-t512-gate-up'][0]
print('gate-up', '$c', round(b['median_us'],2), 'us cublas', round(cu,2), 'ratio', round(cu/b['median_us'],3))" |
    tee -a $OUT/ab.txt
done
grep square /tmp/cublas.jsonl >> $OUT/ab.txt
tar czf $OUT/journals.tgz -C /tmp decode-cold.json decode-cold.json.journal.jsonl gateup.json peak.json 2>/dev/null
echo "all done at $(( $(date +%s) - start ))s" | tee -a $OUT/ab.txt
