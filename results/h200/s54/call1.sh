#!/usr/bin/env bash
# Session of 2026-12-04 (2), call 1 (issue 43 steps 1-2): A/B of the coopmat direct epilogue with the same configs
# (BASE = build-base/gemmtune, the kernels of ec560e4; NEW = build/gemmtune), twice each alternating; then a screen of
# 96/192-sided tiles beside the power-of-two ones (tiles.json) on seven model shapes, every screened time from the
# journal.
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s54c1
mkdir -p $d
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee $d/gpu.txt
ab=results/h200/s54/ab.txt
while read -r shape layout config; do
  [ -z "$shape" ] && continue
  for round in 1 2; do
    for bin in base new; do
      exe=build/gemmtune; [ $bin = base ] && exe=build-base/gemmtune
      us=$($exe bench --shape "$shape" --layout "$layout" --dtype f16 --config "$config" --samples 20 --json 2>>$d/ab.err |
        python3 -c 'import json,sys; r=json.load(sys.stdin)["results"][0]; print(r["median_us"], r["disposition"])')
      echo "$shape $layout $config $bin $round $us" | tee -a $d/ab.txt
    done
  done
done < $ab
cp $d/ab.txt $OUT/ab.txt
while read -r shape layout; do
  [ -z "$shape" ] && continue
  build/gemmtune --shape "$shape" --layout "$layout" --dtype f16 --variants coopmat --space results/h200/s54/tiles.json \
    --strategy screen --budget 25 --out $d/tiles-$shape-$layout.json > $d/tiles-$shape-$layout.log 2>&1
  tail -3 $d/tiles-$shape-$layout.log
done <<'SHAPES'
1500x3072x768 nt
1024x2304x768 nt
512x4096x4096 nt
2048x1024x4096 nt
3000x1000x2000 nt
197x2304x768 nt
1024x768x3072 nt
SHAPES
python3 results/h200/s54/screened.py $d/tiles-*.json.journal.jsonl > $OUT/tiles.md
tar czf $OUT/call1.tgz -C $d .
