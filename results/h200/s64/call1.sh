#!/usr/bin/env bash
# Session 2026-12-05 (7), call 1: issue 43 step 15 (the first builds handed to the workers before the preparation, the
# seeds in rounds, the AVX2 host reference), A/B against commit 3592739's binary (build-base/gemmtune), each run with
# cold caches (its own HOME and NVIDIA shader cache), two rounds alternating; cuBLAS on the same problems; then issue
# 48's scaling count (q4_0 decoding at N = 4096, 8192, 16384 and K = 14336; the dense f16 rowdot on the same bytes).
# Carry: [".gpu-kit", "build/gemmtune", "build-base/gemmtune"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s64c1
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
cold() {  # a binary with nothing cached: its own HOME, pipeline caches and shader cache
  local h
  h=$(mktemp -d)
  HOME=$h XDG_CACHE_HOME=$h/.cache __GL_SHADER_DISK_CACHE_PATH=$h/glcache "$@"
}
tune() {  # tune BIN TAG ROUND SHAPES LAYOUT DTYPES BUDGET
  local out=$d/$2-r$3-$(echo "$4-$5-$6" | tr ',:' '__').json
  cold "$1" --shape "$4" --layout "$5" --dtype "$6" --budget "$7" -v --out "$out" --json > "$out.out" 2> "$out.log"
  python3 - "$out.out" "$2" "$3" "$out.log" "$out.journal.jsonl" <<'PY' | tee -a $d/ab.txt
import json, re, sys
log = open(sys.argv[4]).read()
refs = re.findall(r"host reference in (\d+) ms", log)
first_build = []  # the first screened config's build, problem by problem
seen = set()
for line in open(sys.argv[5]):
    r = json.loads(line)
    if r["phase"] == "screen" and r["problem"] not in seen:
        seen.add(r["problem"])
        first_build.append(round(r["compile_ms"]))
for i, p in enumerate(json.load(open(sys.argv[1]))["problems"]):
    b = p.get("best") or {}
    print(sys.argv[2], "r" + sys.argv[3], p["problem"], "evaluated", p["evaluated"], b.get("name"),
          round(b.get("median_us") or 0, 2), "us", "ref_ms", refs[i] if i < len(refs) else "-",
          "first_build_ms", first_build[i] if i < len(first_build) else "-")
PY
}
for round in 1 2; do
  for bin in base:build-base/gemmtune new:build/gemmtune; do
    tag=${bin%%:*}; b=${bin#*:}
    tune $b $tag $round 2048x14336x4096 nt f16 8
    tune $b $tag $round 4096x4096x4096 nn f32 2.7
    tune $b $tag $round 8x4096x14336 nt bf16,f16 5.4
    tune $b $tag $round 1x51865x768 nt,tt f32,f16 3.6
    tune $b $tag $round 3000x1000x2000,768x2304x768,512x14336x4096 nt f16 6
  done
done
python3 .gpu-kit/cublas_anchor.py --shapes 2048x14336x4096,8x4096x14336,1x51865x768,3000x1000x2000,768x2304x768,512x14336x4096 \
  --dtypes f16,bf16 --layouts nt > $d/cublas-nt.jsonl 2> $d/cublas.log
python3 .gpu-kit/cublas_anchor.py --shapes 1x51865x768 --dtypes f32,f16 --layouts tt > $d/cublas-tt.jsonl 2>> $d/cublas.log
python3 .gpu-kit/cublas_anchor.py --shapes 4096x4096x4096 --dtypes f32 --layouts nn > $d/cublas-nn.jsonl 2>> $d/cublas.log
cat $d/cublas-*.jsonl | tee $d/cublas.txt
# Issue 48: how the decoding time grows with N (fixed K): launch and per-step latency against bytes.
for n in 4096 8192 16384; do
  for c in "qrowdot_f32q4_wg256_rows8_lanes4_splits1 f32:q4_0" "qrowdot_f32q4_wg256_rows4_lanes4_splits1 f32:q4_0" \
           "qrowdot_f32q8_wg256_rows2_lanes4_splits1 f32:q8_0" "rowdot_f16_wg128_rows1_unroll2 f16"; do
    set -- $c
    build/gemmtune bench --config $1 --shape 1x${n}x14336 --layout nt --dtype $2 --json 2>>$d/scale.log |
      python3 -c "
import json,sys
b=json.load(sys.stdin)['results'][0]
print('N=$n', '$2', '$1', round(b['median_us'],2), 'us', b['disposition'])" | tee -a $d/scale.txt
  done
done
cp $d/ab.txt $d/cublas.txt $d/scale.txt $d/gpu.txt $OUT/
tar czf $OUT/call.tgz -C $d .
