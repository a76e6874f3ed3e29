#!/usr/bin/env bash
# Regenerates kernels/prebuilt/: the modules kernels/prebuilt/modules.txt lists (what Debian 12's glslang 12.0
# cannot build), with glslang 15 from ../shared/tools/glslang15 (or GLSLANG15=path/to/run). Each module built
# from source is checked with spirv-val; bf16 modules are their f16 twins retyped by scripts/spirv_bf16.py. Writes
# the MANIFEST of source and output hashes that tests/cli/test_prebuilt.py checks.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
exec python3 "$root/scripts/prebuilt_modules.py" regen "${GLSLANG15:-$root/../shared/tools/glslang15/run}"
