#!/usr/bin/env bash
# Installs what is missing, configures (once; again when given options) and builds Release incrementally.
# Used by scripts/run and scripts/test. GEMMTUNE_BUILD_DIR: the folder (default build/); GEMMTUNE_BUILD_TARGET:
# one target instead of all; GEMMTUNE_DEPS=tool: only the packages the tool needs (scripts/install-deps.sh).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${GEMMTUNE_BUILD_DIR:-$root/build}
if [ "${GEMMTUNE_DEPS:-all}" = tool ]; then "$root/scripts/install-deps.sh" --tool; else "$root/scripts/install-deps.sh"; fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "$@" >&2
elif [ $# -gt 0 ]; then
  cmake "$build" "$@" >&2
fi
target=()
[ -n "${GEMMTUNE_BUILD_TARGET:-}" ] && target=(--target "$GEMMTUNE_BUILD_TARGET")
cmake --build "$build" -j"$(nproc)" "${target[@]}" >&2
