#!/usr/bin/env bash
# Issue 23's first-run promise, timed: a fresh clone of this repository, then the README's first command
# (`scripts/run --shape 1024x768x3072`, the default budget) must reach a verified table within LIMIT seconds
# (default 300), the build included. Run it on a quiet machine with the packages installed:
#   scripts/first-run-check.sh [LIMIT]
# Prints the build's and the run's seconds; exit 1 past the limit or without a verified entry.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
limit=${1:-300}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q "$root" "$work/gemmtune"
cd "$work/gemmtune"
start=$(date +%s.%N)
if ! scripts/run --shape 1024x768x3072 > "$work/run.log" 2>&1; then
  tail -20 "$work/run.log" >&2
  echo "first-run-check: scripts/run failed" >&2
  exit 1
fi
end=$(date +%s.%N)
table=$(ls gemmtune-*.json)
python3 - "$table" <<'PY'
import json, sys
entries = json.load(open(sys.argv[1]))["entries"]
assert entries and all(e["best"] for e in entries), "no verified entry"
print("verified:", ", ".join(e["best"]["name"] for e in entries))
PY
built=$(stat -c %Y build/gemmtune)  # the binary's last write: the end of the build
python3 -c "print(f'first run: {$end - $start:.1f} s from a fresh clone to a verified table (build {$built - $start:.0f} s, ' \
                  f'tune {$end - $built:.0f} s; limit $limit s)')"
python3 -c "import sys; sys.exit(0 if $end - $start <= $limit else 1)" || { echo "first-run-check: over the limit" >&2; exit 1; }
