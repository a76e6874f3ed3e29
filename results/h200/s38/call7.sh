#!/usr/bin/env bash
# Probe H (notes, session of 2026-12-02, second), one call: coopmat configs timed by the binary of HEAD (base) and the
# probe's (new) in the order base, new, new, base (`gemmtune bench`, 10 samples).
# Carry .gpu-kit, build/gemmtune, build-base/gemmtune.   source .gpu-kit/activate.sh && call7.sh OUT
set -uo pipefail
out=${1:?usage: call7.sh OUT_DIR}
mkdir -p "$out"
cases="4096x4096x4096 nn f16 coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits1
512x4096x14336 nt f16 coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits2
2048x2048x2048 nn f16 coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits1
1024x768x3072 nn f16 coopmat_f16_bm64_bn64_bk64_sgm2_sgn2_splits2"
for label in base new new base; do
  bin=build/gemmtune; [ $label = base ] && bin=build-base/gemmtune
  while read -r shape layout dtype config; do
    t=$(timeout 60 "$bin" bench --shape "$shape" --layout "$layout" --dtype "$dtype" --config "$config" --samples 10 --json \
        2>> "$out/bench.err" | python3 -c 'import json,sys; r=json.load(sys.stdin)["results"][0]; print(r["median_us"], r["disposition"])')
    echo "$label $shape $layout $dtype $config $t" | tee -a "$out/bench.txt"
  done <<< "$cases"
done
