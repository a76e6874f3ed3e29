#!/usr/bin/env bash
# Probe G and step 16's second call (notes, session of 2026-12-02, second): `gemmtune peak --cached-read-bytes` at
# L2-resident and DRAM sizes; i8 nt 4096^3 and 1024x768x3072 tuned with the built-in space, cuBLAS int8 in the call.
#   source .gpu-kit/activate.sh && results/h200/s38/call6.sh $OUT
set -uo pipefail
out=${1:?usage: call6.sh OUT_DIR}
bin=./build/gemmtune
mkdir -p "$out"
for bytes in 4194304 16777216 33554432 268435456; do
  timeout 60 "$bin" peak --json --samples 5 --copy-bytes $bytes --cached-read-bytes $bytes --out "$out/peak.json" \
    > "$out/peak-$bytes.json" 2>> "$out/peak.err"
  echo "peak $bytes exit $?"
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["cached_read_buffer_bytes"], "read", round(j["cached_read_gbps"]), "GB/s; copy", round(j["copy_gbps"]), "GB/s")' "$out/peak-$bytes.json"
done
cat "$out"/peak-*.json > "$out/peak-all.txt" && rm "$out"/peak-*.json
timeout 60 python3 scripts/cublas_int8_anchor.py --shapes 4096x4096x4096,1024x768x3072 --layouts nt > "$out/cublas.jsonl"
timeout 120 "$bin" --shape 4096x4096x4096,1024x768x3072 --layout nt --dtype i8 --variants coopmat --budget 15 \
  --out "$out/i8.json" > "$out/i8.log" 2>&1
echo "tune i8 exit $?"
python3 scripts/ratio.py "$out/i8.json" "$out/cublas.jsonl" --markdown "$out/i8-bench.md" && cat "$out/i8-bench.md"
rm -f "$out/i8.json.journal.jsonl"
