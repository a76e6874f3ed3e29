#!/usr/bin/env bash
# Issue 22, one H200 call: the same space of VARIANT (default tiled: bm, bn 64 and 128, bk 8 and 16, tm, tn 4 and 8)
# timed exhaustively by each binary named in BINS (label=path, space-separated) at SHAPES, f32, beside cuBLAS; per binary
# OUT/<label>.txt lists every config's time, registers and local memory, fastest first.
# Carry .gpu-kit and the binaries:  source .gpu-kit/activate.sh && BINS="base=build-base/gemmtune ..." compare.sh OUT
set -uo pipefail
out=${1:?usage: compare.sh OUT_DIR}
shapes=${SHAPES:-"2048x2048x2048:nn 2048x2048x2048:nt 4096x4096x4096:nn 512x4096x14336:nt"}
mkdir -p "$out/work"
variant=${VARIANT:-tiled}
# SPACE: the variant's values to time (JSON object of lists; default 32 configs, about 190 s a binary over the four shapes).
default_space='{"bm": [64, 128], "bn": [64, 128], "bk": [8, 16], "tm": [4, 8], "tn": [4, 8]}'
echo "{\"space_version\": 1, \"variants\": {\"$variant\": ${SPACE:-$default_space}}}" > "$out/work/space.json"
cublas_shapes=$(for s in $shapes; do echo "${s%%:*}"; done | sort -u | paste -sd, -)  # cuBLAS on the same shapes
timeout 90 python3 .gpu-kit/cublas_anchor.py --dtypes f32 --layouts nn,nt --shapes "$cublas_shapes" > "$out/work/cublas.jsonl"
grep -h '"us"' "$out/work/cublas.jsonl" | cut -c1-200
for entry in ${BINS:?}; do
  label=${entry%%=*} bin=${entry#*=}
  t=$out/work/$label.json
  for s in $shapes; do
    timeout ${TUNE_TIMEOUT:-150} "$bin" --shape "${s%%:*}" --layout "${s##*:}" --dtype f32 --variants $variant --space "$out/work/space.json" \
      --strategy exhaustive --samples 5 --budget ${BUDGET:-120} --out "$t" >> "$out/work/$label.log" 2>&1
    echo "$label $s exit $?"
  done
  python3 scripts/ratio.py "$t" "$out/work/cublas.jsonl" --markdown "$out/$label-bench.md" && tail -4 "$out/$label-bench.md"
  python3 results/h200/f32/configs.py "$t.journal.jsonl" > "$out/$label.txt"
  for s in $shapes; do grep "^${s%%:*} ${s##*:} " "$out/$label.txt" | head -3; done
done
tar czf "$out/logs.tgz" -C "$out" work && rm -rf "$out/work"
