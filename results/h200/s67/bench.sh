#!/usr/bin/env bash
# Issue 43's full standard bench across device calls (about 100 tunes at --budget 8 and the anchors: more than one
# call's 10 minutes). First call: `bash results/h200/s67/bench.sh`; each later one, right after, with the last
# call's tar unpacked here (`tar xzf FILES_AT/bench.tgz -C build`): `bash results/h200/s67/bench.sh --resume`,
# carrying build/bench. Same card kind every call (the journal resumes on the same device only). When bench.md is
# in the tar, copy bench.md, bench.json, cublas.jsonl, ggml.jsonl and nvidia-h200.json into results/h200/.
# Carry: [".gpu-kit", "build/gemmtune", "build/bench" (later calls)].
set -uo pipefail
source .gpu-kit/activate.sh
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu.txt
timeout -s INT 520 scripts/gpu-bench.sh --budget 8 --out-dir build/bench "$@" > build/bench.log 2>&1
echo "gpu-bench rc $?" | tee -a $OUT/gpu.txt
tail -5 build/bench.log
cp build/bench.log build/bench/
tar czf $OUT/bench.tgz -C build bench
