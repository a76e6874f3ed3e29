#!/usr/bin/env bash
# Installs what is missing, configures (once) and builds Release incrementally into build/.
# Used by scripts/run and scripts/test; GEMMTUNE_BUILD_DIR overrides the folder.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${GEMMTUNE_BUILD_DIR:-$root/build}
"$root/scripts/install-deps.sh"
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "$@" >&2
elif [ $# -gt 0 ]; then
  cmake "$build" "$@" >&2
fi
cmake --build "$build" -j"$(nproc)" >&2
