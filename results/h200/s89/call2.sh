#!/usr/bin/env bash
# Session after 2026-12-07 (24), call 2 (unrun): issue 43 after step 43. The attention rows with K <= 512 in bf16
# beside cuBLAS (s88's shapes file, from git history), and the one scores row still short of 0.40 (2048x2048x128x32
# f16 nt: 303.8 us at --budget 8 on an H100, 292 needed) tuned at --budget 40 to see whether a config of the grown
# space reaches it; then coopmat's several-tiles device test (its sampling of both staging forms, f53fdd4, not yet
# run on a device). Carry: [".gpu-kit", "build/gemmtune", "build-test/tests/gpu_tests"] (binaries of this commit or
# later; this run: gpu_tests of the session's chunked-decoding work, so its device test and the kit's run too).
set -uo pipefail
source .gpu-kit/activate.sh
d=/tmp/s89c2
mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader | tee $d/gpu.txt
git show 7000182:results/h200/s88/attention.txt > $d/attention.txt
scripts/models-bench.sh --budget 8 --dtypes bf16 --shapes-file $d/attention.txt --out-dir $d/bf16 > $d/models.log 2>&1
echo "models-bench rc $?" | tee -a $d/gpu.txt
grep -E "^\| " $d/bf16/bench.md | tee $d/table.txt
echo "attn-d128-t2048-scores 2048x2048x128x32 nt" > $d/long-shape.txt
python3 scripts/cublas_batched_anchor.py $d/long-shape.txt --dtypes f16 | tee -a $d/table.txt
build/gemmtune tune --shape 2048x2048x128x32 --dtype f16 --layout nt --budget 40 --out $d/long.json > $d/long.txt 2>&1
grep -E "screened|screening:|time:|best:|runner-up|^\*" $d/long.txt | tee -a $d/table.txt
GEMMTUNE_TEST_WITHOUT_VALIDATION=1 timeout 200 build-test/tests/gpu_tests \
  --gtest_filter='CooperativeMatrix.SeveralTiles*:QuantizedGemm.Chunk*:KitPlan.*' > $d/tests.log 2>&1
echo "gpu_tests rc $?" | tee -a $d/table.txt
grep -E '^\[ +(OK|PASSED|FAILED|SKIPPED) |Failure' $d/tests.log | head -20 | tee -a $d/table.txt
cp $d/table.txt $d/gpu.txt $d/bf16/bench.md $d/bf16/cublas.jsonl $d/long.txt $OUT/
