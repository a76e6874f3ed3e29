#!/usr/bin/env bash
# A CI performance-regression job, whole: tune a shape suite on this machine's device, compare the table with the
# committed baseline of the same device, re-measure each suspected regression here (compare --rerun: the baseline's
# config against the new one, interleaved, where this build and driver run what the baseline ran), and fail (exit 1)
# on a regression that stands. The reports of that one comparison go beside the table: compare.md for the job
# summary, compare.xml (JUnit) for the test tab.
#   scripts/ci-perf-example.sh [--suite FILE] [--baseline FILE] [--out-dir DIR] [--budget TIME] [--threshold PCT]
#                              [--no-rerun]
# Defaults: configs/shapes/h200-suite.txt, the table in results/baselines/ whose device name is this device's,
# DIR ci-perf/, 20s per shape, 5%, DTYPES=f32. A missing baseline is an error (exit 2), never a pass; refresh one
# by copying a reviewed table into results/baselines/.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${GEMMTUNE_BIN:-$root/build/gemmtune}
suite=$root/configs/shapes/h200-suite.txt
baseline=""
out=ci-perf
budget=20s
threshold=5%
rerun=--rerun
while [ $# -gt 0 ]; do
  case "$1" in
    --suite) suite=$2; shift 2 ;;
    --baseline) baseline=$2; shift 2 ;;
    --out-dir) out=$2; shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    --threshold) threshold=$2; shift 2 ;;
    --no-rerun) rerun=""; shift ;;
    *) echo "ci-perf-example.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
if [ -n "$baseline" ] && [ ! -f "$baseline" ]; then
  echo "ci-perf-example.sh: no baseline '$baseline'" >&2
  exit 2
fi
shapes=$(sed 's/#.*//' "$suite" | grep -oE '[0-9]+x[0-9]+x[0-9]+(x[0-9]+)?' | paste -sd, -)
mkdir -p "$out"
rm -f "$out/table.json" "$out/table.json.journal.jsonl"
"$bin" --shape "$shapes" --dtype "${DTYPES:-f32}" --budget "$budget" --out "$out/table.json" > "$out/tune.log"
if [ -z "$baseline" ]; then
  baseline=$(python3 - "$out/table.json" "$root/results/baselines" <<'PY'
import glob, json, os, sys
name = json.load(open(sys.argv[1]))["device"]["name"]
for path in sorted(glob.glob(os.path.join(sys.argv[2], "*.json"))):
    try:
        if json.load(open(path))["device"]["name"] == name:
            print(path)
            break
    except (OSError, ValueError, KeyError):
        pass
PY
)
fi
if [ ! -f "$baseline" ]; then
  echo "ci-perf-example.sh: no baseline '$baseline' for this device" >&2
  exit 2
fi
"$bin" compare "$baseline" "$out/table.json" --threshold "$threshold" $rerun \
  --also "junit=$out/compare.xml" --also "md=$out/compare.md"
