#!/usr/bin/env bash
# Issue 21, one H200 call (2026-12-02): where the KHR coopmat kernel's time goes at 4096^3 f16, and what makes
# coopmat2 bimodal; issue 22's probe B in the same call.
#  1. coopmat exhaustively over 128x128, 128x256 and 256x128 tiles (sgm 2 and 4, sgn 2 and 4, BK 16-64, stages 1-2)
#     with each config's register count (the journal's pipeline statistics).
#  2. Ablation (results/h200/coopmat/ablation.patch, built as PROBE_BIN): the same configs with the k loop's global
#     loads left out (1), all staging left out (2), staging and barriers left out (3), fragments loaded once (4).
#  3. coopmat2's 128x128 BK 64 config benched six times, SM clock and power logged every 100 ms beside it.
#  4. Issue 22 probe B: warptile's one-pass split-k against the reduce pass on the small grids.
# Carry .gpu-kit, build/gemmtune, .probe:  source .gpu-kit/activate.sh && results/h200/coopmat/call1.sh $OUT
set -uo pipefail
out=${1:?usage: call1.sh OUT_DIR}
bin=${GEMMTUNE:-./build/gemmtune} probe_bin=${PROBE_BIN:-./.probe/gemmtune-probe}
mkdir -p "$out/work"
w=$out/work
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv -lms 100 > "$w/smi.csv" 2>&1 &
smi=$!
stamp() { echo "$(date +%H:%M:%S.%N) $*" >> "$w/stamps.txt"; }
timeout 120 python3 .gpu-kit/cublas_anchor.py --dtypes f16 --layouts nn \
  --shapes 4096x4096x4096,2048x2048x2048,128x768x3072,128x768x768,1024x768x3072 > "$w/cublas.jsonl"
grep -h '"us"' "$w/cublas.jsonl" | cut -c1-160

# 1. The sweep.
echo '{"space_version": 1, "variants": {"coopmat": {"bm": [128, 256], "bn": [128, 256], "bk": [16, 32, 64],
  "sgm": [2, 4], "sgn": [2, 4], "splits": [1], "stages": [1, 2]}}}' > "$w/space.json"
stamp sweep
timeout 240 "$bin" --shape 4096x4096x4096 --dtype f16 --variants coopmat --space "$w/space.json" \
  --strategy exhaustive --samples 3 --budget 200 --out "$w/sweep.json" > "$w/sweep.log" 2>&1
echo "sweep exit $?"
python3 results/h200/f32/configs.py "$w/sweep.json.journal.jsonl" > "$out/sweep.txt"
head -20 "$out/sweep.txt"

# 2. The ablation, on three configs.
echo '{"space_version": 1, "variants": {"coopmat": {"bm": [128], "bn": [128, 256], "bk": [32], "sgm": [2],
  "sgn": [2, 4], "splits": [1], "stages": [1, 2]}}}' > "$w/ablation-space.json"
for p in 0 1 2 3 4; do
  stamp "probe $p"
  GEMMTUNE_PROBE_SPV=.probe/coopmat_p$p.spv timeout 100 "$probe_bin" --shape 4096x4096x4096 --dtype f16 \
    --variants coopmat --space "$w/ablation-space.json" --strategy exhaustive --samples 3 --budget 80 \
    --out "$w/probe$p.json" > "$w/probe$p.log" 2>&1
  echo "probe $p exit $?"
  python3 results/h200/f32/configs.py "$w/probe$p.json.journal.jsonl" | sed "s/^/p$p /" >> "$out/ablation.txt"
done
cat "$out/ablation.txt"

# 3. coopmat2's bimodal config, six times.
for i in 1 2 3 4 5 6; do
  stamp "coopmat2 $i start"
  timeout 60 "$bin" bench --shape 4096x4096x4096 --dtype f16 --config coopmat2_f16_wg128_bm128_bn128_bk64_splits1 \
    --samples 10 --json > "$w/cm2-$i.json" 2> "$w/cm2-$i.log"
  stamp "coopmat2 $i end"
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[1], json.dumps(d)[:600])" "$w/cm2-$i.json"
done

# 4. Issue 22 probe B.
stamp probeB
VARIANT=warptile BINS="wt=$bin" SHAPES="128x768x3072:nn 128x768x768:nn 1024x768x3072:nn" TUNE_TIMEOUT=100 \
  SPACE='{"bm": [64, 128], "bn": [128], "bk": [8], "wm": [16, 32], "wn": [64], "tm": [8], "tn": [4],
  "splits": [4, 8, 12, 16], "reduce": [0, 1]}' results/h200/f32/compare.sh "$w/probeB"
mv "$w/probeB/wt.txt" "$out/probeB.txt" 2>/dev/null
kill $smi
tar czf "$out/logs.tgz" -C "$out" work && rm -rf "$w"
