#!/usr/bin/env bash
# Session 2026-12-06 (13), call 5: the count for the decode rows (issue 43): the harness's floor (a run of a config
# on a problem of one workgroup, back to back with the barrier a caller records), the m4-nn winner on shrinking N,
# the decoding families' screen of 4x3072x768 nn (journal), and cuBLAS on the decode rows in the same call.
# Carry: [".gpu-kit", "build/gemmtune"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s72c5
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
bench() {  # config shape layout
  build/gemmtune bench --config $1 --shape $2 --layout $3 --dtype f16 --json 2>>$d/bench.log | python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$2', '$3', '$1', round(b['median_us'],2), 'us', b['disposition'], b.get('passes_us',''))" | tee -a $d/ab.txt
}
for n in 16 192 768 3072; do bench rowmma_f16_sgk4_frags1_unroll4_wide0_regs1 4x${n}x768 nn; done
bench rowmma_f16_sgk4_frags1_unroll4_wide0_regs1 4x3072x64 nn
bench rowdot_f16_wg128_rows2_unroll1 1x16x64 nt
bench rowdot_f16_wg128_rows2_unroll1 1x4096x4096 nt
bench coopmat_f16_bm64_bn64_bk64_sgm2_sgn2_splits1 16x64x64 nn
bench rowmma_f16_sgk16_frags2_unroll2_wide0_regs1 16x4096x4096 tt
bench rowmma_f16_sgk16_frags2_unroll2_wide0_regs1 16x4096x4096 nt
bench rowmma_f16_sgk16_frags2_unroll2_wide0_regs1 8x4096x4096 tn
build/gemmtune tune --shape 4x3072x768 --dtype f16 --layout nn --budget 40 --strategy screen \
  --variants rowmma,fewrows,rowdot,coopmat --out $d/m4nn.json --json > $d/m4nn-tune.json 2>>$d/tune.log
python3 - $d/m4nn.json.journal.jsonl <<'PY' | tee $d/m4nn-screen.txt
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
rows = [r for r in rows if r.get('median_us', 0) > 0 and r.get('disposition') == 'passed']
best = {}
for r in rows:
    if r['config'] not in best or r['median_us'] < best[r['config']]:
        best[r['config']] = r['median_us']
for c, t in sorted(best.items(), key=lambda x: x[1])[:40]:
    print(round(t, 2), c)
print(len(best), 'configs')
PY
python3 .gpu-kit/cublas_anchor.py --shapes 4x3072x768 --dtypes f16 --layouts nn > $d/cublas.jsonl 2>>$d/tune.log
python3 .gpu-kit/cublas_anchor.py --shapes 16x4096x4096 --dtypes f16 --layouts tt,nt >> $d/cublas.jsonl 2>>$d/tune.log
python3 .gpu-kit/cublas_anchor.py --shapes 8x4096x4096 --dtypes f16 --layouts tn >> $d/cublas.jsonl 2>>$d/tune.log
python3 .gpu-kit/cublas_anchor.py --shapes 1x16x64,4x16x768 --dtypes f16 --layouts nt >> $d/cublas.jsonl 2>>$d/tune.log
cat $d/cublas.jsonl
cp $d/ab.txt $d/gpu.txt $d/m4nn-screen.txt $d/cublas.jsonl $d/m4nn.json.journal.jsonl $OUT/
