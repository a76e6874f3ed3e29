#!/usr/bin/env bash
# Multi-GPU check, rerunnable on a host with several GPUs (the GPU machine, kind nvidia-h200-x2):
#   source .gpu-kit/activate.sh && scripts/gpu-devices-bench.sh [--budget SECONDS] [--dtype D] [--out-dir DIR]
# Tunes the h200-suite on one device (--device 0), then on every device (--devices all), timing both, and
# compares the two tables (gemmtune compare: the same winners within the noise bands, or a slower one named).
# Writes DIR/one.json, DIR/all.json, DIR/one.log, DIR/all.log, DIR/compare.md and DIR/summary.md
# (DIR defaults to results/h200x2).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
budget=10
dtype=f32
out=$root/results/h200x2
while [ $# -gt 0 ]; do
  case "$1" in
    --budget) budget=$2; shift 2 ;;
    --dtype) dtype=$2; shift 2 ;;
    --out-dir) out=$2; shift 2 ;;
    *) echo "gpu-devices-bench.sh: unknown argument '$1' (expected --budget, --dtype or --out-dir)" >&2; exit 2 ;;
  esac
done
bin=${GEMMTUNE_BIN:-$root/build/gemmtune}
mkdir -p "$out"
rm -f "$out"/one.json* "$out"/all.json*
"$bin" devices > "$out/devices.txt"
seconds() { date +%s.%N; }
t0=$(seconds)
"$bin" --suite h200-suite --dtype "$dtype" --budget "$budget" --device 0 --no-color --out "$out/one.json" > "$out/one.log" 2>&1
t1=$(seconds)
"$bin" --suite h200-suite --dtype "$dtype" --budget "$budget" --devices all --no-color --out "$out/all.json" > "$out/all.log" 2>&1
t2=$(seconds)
set +e
"$bin" compare "$out/one.json" "$out/all.json" --threshold 5% --format md --out "$out/compare.md"
compared=$?
set -e
one=$(python3 -c "print($t1 - $t0)")
all=$(python3 -c "print($t2 - $t1)")
{
  echo "# --devices all against one device: h200-suite, $dtype, --budget $budget"
  echo
  echo "Devices: $(grep -c '^[0-9]*:' "$out/devices.txt") ($(grep '^[0-9]*:' "$out/devices.txt" | paste -sd';' -))"
  echo
  printf '| run | wall seconds |\n|---|---:|\n| --device 0 | %.1f |\n| --devices all | %.1f |\n\n' "$one" "$all"
  printf 'Ratio all / one: %.2f. gemmtune compare one.json all.json --threshold 5%%: exit %d (0: no entry slower beyond 5%% and the noise).\n' \
    "$(python3 -c "print($all / $one)")" "$compared"
} > "$out/summary.md"
cat "$out/summary.md"
