#!/usr/bin/env bash
# Session of 2026-12-02, call 2 (notes: "call 2"): the reduce pass read as 16-byte vectors (base = 527e012 against
# new) on split configs of coopmat and warptile, beside cuBLAS and ggml-vulkan; issue 22 step 11's confirmation.
# Carry .gpu-kit, build/gemmtune, build-base/gemmtune.   source .gpu-kit/activate.sh && results/h200/s37/call2.sh $OUT
set -uo pipefail
out=${1:?usage: call2.sh OUT_DIR}
w=$out/work
mkdir -p "$w"
timeout 120 python3 .gpu-kit/cublas_anchor.py --dtypes f16,bf16 --layouts nt --shapes 512x4096x14336 > "$w/cublas.jsonl"
timeout 120 python3 .gpu-kit/cublas_anchor.py --dtypes f16,f32 --layouts nn \
  --shapes 128x768x3072,1024x768x3072,128x768x768,1024x3072x768 >> "$w/cublas.jsonl"
grep -h '"us"' "$w/cublas.jsonl" | cut -c1-150
timeout 90 .gpu-kit/ggml_anchor.sh 'type_a=(f16|bf16),type_b=f32,m=4096,n=512,k=14336,' > "$w/ggml.jsonl"
cut -c1-150 "$w/ggml.jsonl"
# Issue 22 step 11 (the new binary: step 11's screen; the reduce pass does not touch unsplit configs).
timeout 60 build/gemmtune --shape 1024x3072x768 --dtype f32 --variants tiled,splitk,warptile --budget 20 \
  --out "$w/s11.json" > "$w/s11.log" 2>&1
echo "step 11 exit $?"
python3 scripts/ratio.py "$w/s11.json" "$w/cublas.jsonl" --markdown "$out/s11-bench.md" | tail -1
# The reduce pass, base against new, in alternating order (A B B A) on each config.
bench() {  # label bin shape layout dtype config
  r=$(timeout 60 $2 bench --shape $3 --layout $4 --dtype $5 --config $6 --samples 15 --json 2>> "$w/bench.err" |
    python3 -c "import json,sys; d=json.load(sys.stdin); r=d['results'][0] if 'results' in d else d; print(r.get('median_us', r))" 2>>"$w/bench.err")
  echo "$1 $3 $4 $5 $6 $r"
}
while read -r shape layout dtype config; do
  for lab in base new new base; do
    bin=build/gemmtune; [ $lab = base ] && bin=build-base/gemmtune
    bench $lab $bin $shape $layout $dtype $config
  done
done <<'LIST' | tee "$out/reduce-ab.txt"
512x4096x14336 nt f16 coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits2
512x4096x14336 nt bf16 coopmat_bf16_bm128_bn128_bk64_sgm2_sgn2_splits2
128x768x3072 nn f16 coopmat_f16_bm64_bn64_bk64_sgm2_sgn2_splits8
1024x768x3072 nn f16 coopmat_f16_bm64_bn64_bk64_sgm2_sgn2_splits2
128x768x768 nn f32 warptile_f32_bm64_bn64_bk8_wm16_wn64_tm8_tn4_splits8_reduce1
128x768x3072 nn f32 warptile_f32_bm64_bn64_bk8_wm32_wn32_tm8_tn4_splits16_reduce1
1024x768x3072 nn f32 warptile_f32_bm64_bn64_bk8_wm64_wn16_tm4_tn8_splits2_reduce1
LIST
build/gemmtune bench --shape 128x768x768 --dtype f32 --config warptile_f32_bm64_bn64_bk8_wm16_wn64_tm8_tn4_splits8_reduce1 \
  --samples 3 --json > "$w/bench-sample.json" 2>&1
tar czf "$out/work.tgz" -C "$out" work && rm -rf "$w"
