#!/usr/bin/env bash
# Session call 1 (2026-12-01): issue 21 probe 2 (the matrix-sweep point with A built from registers), issue 18 step 33
# (build-s33/gemmtune: rowmma's loop a path, fetches under a per-trip test) against today's binary, and issue 22's
# f32 baseline (tiled and splitk at 2048^3 in four layouts and 4096^3, with the driver's register counts).
# Carry .gpu-kit, build/gemmtune, build-s33/gemmtune:  source .gpu-kit/activate.sh && results/h200/decode/step33/run.sh
set -uo pipefail
out=${OUT:?}
./build/gemmtune peak --matrix-sweep --json --out "$out/peak.json" > "$out/peak-sweep.json" 2> "$out/peak.err"
tail -c 3000 "$out/peak-sweep.json"; echo
for b in base s33; do
  bin=./build/gemmtune; [ $b = s33 ] && bin=./build-s33/gemmtune
  SHAPES=5x4096x14336,8x4096x14336 DTYPES=f16 TESTS=0 GEMMTUNE=$bin results/h200/decode/rowmma-sweep.sh "$out/rowmma-$b" > "$out/rowmma-$b.log" 2>&1
  echo "== $b"; tail -30 "$out/rowmma-$b.log"
  cat "$out/rowmma-$b/registers.txt"
done
mkdir -p "$out/f32"
timeout 60 python3 .gpu-kit/cublas_anchor.py --shapes 2048x2048x2048,4096x4096x4096 --dtypes f32 --layouts nn,nt,tn,tt > "$out/f32/cublas.jsonl"
timeout 300 ./build/gemmtune --shape 2048x2048x2048 --layout nn,nt,tn,tt --dtype f32 --variants tiled,splitk --budget 60 \
  --out "$out/f32/table.json" > "$out/f32/tune.log" 2>&1
timeout 100 ./build/gemmtune --shape 4096x4096x4096 --layout nn --dtype f32 --variants tiled --budget 40 \
  --out "$out/f32/table.json" >> "$out/f32/tune.log" 2>&1
python3 scripts/ratio.py "$out/f32/table.json" "$out/f32/cublas.jsonl" --markdown "$out/f32/bench.md"
cat "$out/f32/bench.md"
python3 results/h200/decode/list-configs.py "$out/f32/table.json.journal.jsonl" > "$out/f32/configs.txt"
python3 results/h200/decode/list-configs.py --registers "$out/f32/table.json.journal.jsonl" > "$out/f32/registers.txt"
for s in "2048x2048x2048 nn" "2048x2048x2048 nt" "2048x2048x2048 tn" "2048x2048x2048 tt" "4096x4096x4096 nn"; do grep "^$s " "$out/f32/configs.txt" | head -5; done
tar czf "$out/logs.tgz" -C "$out" rowmma-base rowmma-s33 rowmma-base.log rowmma-s33.log f32 peak.err peak.json
rm -rf "$out/rowmma-base" "$out/rowmma-s33" "$out/f32" "$out"/*.log "$out/peak.json" "$out/peak.err"
