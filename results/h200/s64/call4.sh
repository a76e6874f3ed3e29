#!/usr/bin/env bash
# Session 2026-12-05 (7), call 4: issue 43 step 15c (pipelines built before in the process neither handed to the
# workers nor waited for), A/B against commit 3592739's binary (build-base/gemmtune) as in call 3, cold caches, one
# round (the device time left); ab.txt written to $OUT as it goes.
# Carry: [".gpu-kit", "build/gemmtune", "build-base/gemmtune"].
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s64c4
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
  python3 - "$out.out" "$2" "$3" "$out.log" "$out.journal.jsonl" <<'PY' | tee -a $d/ab.txt $OUT/ab.txt
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
for round in 1; do
  for bin in base:build-base/gemmtune new:build/gemmtune; do
    tag=${bin%%:*}; b=${bin#*:}
    tune $b $tag $round 2048x14336x4096 nt f16 8
    tune $b $tag $round 512x14336x4096,768x2304x768 nt f16 6
  done
done
cp $d/gpu.txt $OUT/
tar czf $OUT/call.tgz -C $d .
