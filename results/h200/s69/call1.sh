#!/usr/bin/env bash
# Session 2026-12-06 (10), call 1: s68/call1.sh (step 20's device tests and qrowmma's ablation; its header says
# what is built here first), then issue 48 step 21's A/B: qrowdot at 16 rows of B a workgroup against 8 (and 1) at
# wg 128/256, splits 1/2/4, M = 1, 2, 4, f32:q4_0 and f32:q8_0, N 4096, K 14336, nt, hot (`--strategy exhaustive`:
# every listed config timed in full). Carry: [".gpu-kit", "build/gemmtune", "build/tests/gpu_tests", ".probe"].
set -uo pipefail
bash results/h200/s68/call1.sh
source .gpu-kit/activate.sh
d=/tmp/s69c1
mkdir -p $d
build/gemmtune tune --shape 1x4096x14336,2x4096x14336,4x4096x14336 --layout nt --dtype f32:q4_0,f32:q8_0 \
  --kernels 'qrowdot_f32q?_wg[12][25][68]_rows[18]*_lanes4_splits[124]' --strategy exhaustive --budget 40 \
  --out $d/ab.json --json > $d/ab.out 2> $d/ab.log
echo "tune rc $?" | tee $d/ab.txt
python3 - $d/ab.json.journal.jsonl <<'PY' | sort | tee -a $d/ab.txt
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get('phase') != 'begin' and r.get('median_us'):
        q = json.loads(r['problem'])
        print('M=%d' % q['m'], q['dtype'], r['config'], round(r['median_us'], 2), r['disposition'], r['phase'])
PY
# Issue 43's edge row: the bound of an aligning pre-pass, 777x1234x555 f16 nn run with its leading dimensions padded
# to 16 bytes (560, 1240: the kernels' aligned loads, no copy timed), beside the default and the aligned neighbour.
e=coopmat_f16_bm64_bn128_bk64_sgm4_sgn4_splits1
for args in "--shape 777x1234x555" "--shape 777x1234x555 --lda 560 --ldb 1240" "--shape 768x1280x576"; do
  build/gemmtune bench --config $e $args --dtype f16 --layout nn --json 2>>$d/edge.log | python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$args', '$e', round(b['median_us'],2), 'us', b['disposition'])" | tee -a $d/edge.txt
done
for args in "--shape 777x1234x555" "--shape 777x1234x555 --lda 560 --ldb 1240"; do
  build/gemmtune tune $args --dtype f16 --layout nn --budget 8 --out $d/edge.json --json 2>>$d/edge.log | python3 -c "
import json,sys
b=json.load(sys.stdin)['problems'][0]['best']
print('tune $args', b['name'], round(b['median_us'],2), 'us')" | tee -a $d/edge.txt
done
cp $d/ab.txt $d/edge.txt $OUT/
tar czf $OUT/ab.tgz -C $d .
