#!/usr/bin/env bash
# Issue 43: this session's prior (2026-12-06 (15)) against the one before on the device, A/B in one call: the models
# suite's f16 problems of more than 16 rows where a unit's work is short (the subgroups rule's side) at --budget 8,
# each binary with cold caches, build/gemmtune-oldprior built
# from this tree with src/kernels/{coopmat,coopmat2,tiled}.cpp as of f87c6c0. About 7 minutes (25 problems).
# Carry: [".gpu-kit", "build/gemmtune", "build/gemmtune-oldprior"].
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
awk '!/^#/ && NF { split($2, d, "x"); b = d[4] ? d[4] : 1
  w = int((d[1] + 127) / 128) * int((d[2] + 127) / 128) * b / 132 * d[3] / 64
  if (d[1] > 16 && w < 50) print }' configs/shapes/models.txt > /tmp/prompt.txt
wc -l < /tmp/prompt.txt | tee -a $OUT/gpu.txt
for b in oldprior new; do
  bin=build/gemmtune; [ $b = oldprior ] && bin=build/gemmtune-oldprior
  GEMMTUNE_CACHE_DIR=/tmp/cache-$b __GL_SHADER_DISK_CACHE_PATH=/tmp/nvcache-$b \
    $bin --shapes-file /tmp/prompt.txt --dtype f16 --budget 8 --out $OUT/$b.json > $OUT/$b.txt 2>&1
done
python3 - $OUT/oldprior.json $OUT/new.json <<'PY' | tee $OUT/ab.md
import json, sys
old, new = (json.load(open(f))["entries"] for f in sys.argv[1:3])
key = lambda e: (e["m"], e["n"], e["k"], e.get("batch", 1), e["layout"])
o = {key(e): e for e in old}
print("| problem | old prior us | new prior us | new / old |\n|---|---:|---:|---:|")
for e in new:
    a, b = o.get(key(e), {}).get("best"), e.get("best")
    if a and b:
        print(f"| {'x'.join(map(str, key(e)[:4]))} {key(e)[4]} | {a['median_us']:.2f} | {b['median_us']:.2f} | "
              f"{b['median_us'] / a['median_us']:.3f} |")
PY
