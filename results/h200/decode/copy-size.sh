#!/usr/bin/env bash
# Issue 18's count for M = 1: the copy rate one dispatch reaches at a decode matrix's own size, beside the default
# 256 MiB. One H200 call: `gemmtune peak --copy-bytes B` for half the bytes of 1x51865x768 f16 (read + written =
# the matrix, 79.7 MB), half of 1x4096x14336 f16 (117 MB), the whole of 1x51865x768 f16 (= half the f32 matrix),
# and 256 MiB. Carry .gpu-kit and build/gemmtune: source .gpu-kit/activate.sh && results/h200/decode/copy-size.sh OUT
set -uo pipefail
out=${1:?usage: copy-size.sh OUT_DIR}
mkdir -p "$out"
for bytes in 39832320 58720256 79664640 268435456; do
  ./build/gemmtune peak --copy-bytes $bytes --json --out "$out/peak.json" > "$out/peak-$bytes.json"
  python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(sys.argv[2], 'bytes a buffer:', round(r['copy_gbps'], 1), 'GB/s,', round(2*int(sys.argv[2])/r['copy_gbps']/1e3, 2), 'us')" "$out/peak-$bytes.json" $bytes
done
