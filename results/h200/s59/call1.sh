#!/usr/bin/env bash
# Session of 2026-12-05 (4), call 1: issue 43 step 7 (coopmat's sums leave in 16-byte runs) and issue 48 step 12 (the
# plane build's fast step issues its loads as the dense kernel's). A/B, the same configs, two rounds alternating:
# BASE = build/base/gemmtune (the binary of bdec815), NEW = build/gemmtune. Then every config of edges.json verified
# on the host on shapes with edges in M and N, every layout, with epilogues that take the scalar path.
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s59c1
mkdir -p $d
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee $d/gpu.txt
t=bm64_bn128_bk64_sgm2_sgn4_splits1
cases=(
  "coopmat_f16_bm128_bn128_bk16_sgm2_sgn4_splits1 2048x2048x128x32 f16 nt"
  "coopmat_f16_bm128_bn128_bk16_sgm2_sgn4_splits1 2048x2048x64x12 f16 nt"
  "coopmat_bf16_bm128_bn128_bk16_sgm2_sgn4_splits1 512x512x128x32 bf16 nt"
  "coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits1 1500x2304x768 f16 nt"
  "coopmat_f16_bm128_bn128_bk64_sgm2_sgn4_splits1 512x4096x4096 f16 nt"
  "coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits1 2048x2048x2048 f16 nn"
  "coopmat_f16_bm64_bn96_bk128_sgm4_sgn2_splits4 197x768x3072 f16 nt"
  "coopmat_f16_bm128_bn192_bk64_sgm4_sgn4_splits1 1000x3000x1000 f16 nn"
  "coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits1 1024x1024x1024 f16 nt --beta 0.5 --bias --activation gelu-erf"
  "coopmat_f16q4_${t}_prepass1 16x4096x14336 f16:q4_0 nt"
  "coopmat_f16_${t} 16x4096x14336 f16 nt"
  "coopmat_f16q4_${t}_prepass1 512x4096x14336 f16:q4_0 nt"
  "coopmat_f16_${t} 512x4096x14336 f16 nt"
  "coopmat_f32q8_${t}_prepass1 512x4096x14336 f32:q8_0 nt"
)
for round in 1 2; do
  for bin in base new; do
    exe=build/gemmtune; [ $bin = base ] && exe=build/base/gemmtune
    for c in "${cases[@]}"; do
      set -- $c
      cfg=$1 shape=$2 dtype=$3 layout=$4; shift 4
      $exe bench --config $cfg --shape $shape --layout $layout --dtype $dtype "$@" --json 2>>$d/bench.log | python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('$round', '$bin', '$shape', '$dtype', '$layout', '$cfg', '$*'.replace(' ', ''), round(b['median_us'],2), 'us', b['disposition'], b.get('passes_us', ''))" \
        | tee -a $d/ab.txt
    done
  done
done
cp $d/ab.txt $OUT/
for dtype in f16 f16:q8_0; do
  build/gemmtune --shape 1000x1040x1056,197x200x544x2,999x1001x1056 --layout nt,tt --dtype $dtype --variants coopmat \
    --space results/h200/s59/edges.json --strategy screen --budget 15 --host-check --samples 3 --json \
    --out $d/edges-${dtype/:/}.json > $d/edges.summary.json 2> $d/edges.log
  python3 -c '
import json,sys
for p in json.load(open(sys.argv[1]))["problems"]:
    print(p["problem"], p["layout"], p["dtype"], "evaluated", p.get("evaluated"), "failed", p.get("failed"))
' $d/edges.summary.json | tee -a $d/edges.txt
done
build/gemmtune --shape 1000x1040x1056,197x200x544x2 --layout nn,tn --dtype f16 --variants coopmat \
  --space results/h200/s59/edges.json --strategy screen --budget 15 --host-check --samples 3 --beta 0.5 --bias \
  --offset-c 2 --json --out $d/edges-c.json > $d/edges.summary.json 2>> $d/edges.log
python3 -c '
import json,sys
for p in json.load(open(sys.argv[1]))["problems"]:
    print(p["problem"], p["layout"], p["dtype"], "offset-c 2", "evaluated", p.get("evaluated"), "failed", p.get("failed"))
' $d/edges.summary.json | tee -a $d/edges.txt
cp $d/edges.txt $OUT/
tar czf $OUT/call.tgz -C $d .
