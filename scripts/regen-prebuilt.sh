#!/usr/bin/env bash
# Regenerates kernels/prebuilt/: the cooperative-matrix SPIR-V that Debian 12's glslang (12.0) cannot build
# (the coopmat, coopmat2 and rowmma GEMM kernels in f16 and bf16, the matrix-unit peak sweep and fragment probe, the integer tiled
# kernel's packed-dot-product form and the integer coopmat kernel).
# Uses glslang 15 from ../shared/tools/glslang15 (or GLSLANG15=path/to/run), validates the f16 module with
# spirv-val, derives the bf16 module with scripts/spirv_bf16.py, and writes the manifest of source hashes that
# tests/cli/test_prebuilt.py checks.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
run=${GLSLANG15:-$root/../shared/tools/glslang15/run}
out=$root/kernels/prebuilt
mkdir -p "$out"
cd "$root/kernels"
"$run" glslangValidator -V --target-env vulkan1.3 -S comp -I. gemm_coopmat.comp -o "$out/coopmat_f16.spv" >/dev/null
"$run" spirv-val --target-env vulkan1.3 "$out/coopmat_f16.spv"
python3 "$root/scripts/spirv_bf16.py" "$out/coopmat_f16.spv" "$out/coopmat_bf16.spv"
"$run" glslangValidator -V --target-env vulkan1.3 -S comp -I. gemm_coopmat2.comp -o "$out/coopmat2_f16.spv" >/dev/null
"$run" spirv-val --target-env vulkan1.3 "$out/coopmat2_f16.spv"
python3 "$root/scripts/spirv_bf16.py" "$out/coopmat2_f16.spv" "$out/coopmat2_bf16.spv"
"$run" glslangValidator -V --target-env vulkan1.3 -S comp -I. gemm_rowmma.comp -o "$out/rowmma_f16.spv" >/dev/null
"$run" spirv-val --target-env vulkan1.3 "$out/rowmma_f16.spv"
python3 "$root/scripts/spirv_bf16.py" "$out/rowmma_f16.spv" "$out/rowmma_bf16.spv"
"$run" glslangValidator -V --target-env vulkan1.3 -S comp probe_fragments.comp -o "$out/probe_fragments_f16.spv" >/dev/null
"$run" spirv-val --target-env vulkan1.3 "$out/probe_fragments_f16.spv"
for dtype in i8 u8 u8i8; do
  upper=$(echo "$dtype" | tr a-z A-Z)
  "$run" glslangValidator -V --target-env vulkan1.3 -S comp -I. -DINPUT_$upper=1 -DUSE_DOT=1 gemm_tiled_int.comp -o "$out/tiled_dot_$dtype.spv" >/dev/null
  "$run" spirv-val --target-env vulkan1.3 "$out/tiled_dot_$dtype.spv"
  "$run" glslangValidator -V --target-env vulkan1.3 -S comp -I. -DINPUT_$upper=1 gemm_coopmat_int.comp -o "$out/coopmat_$dtype.spv" >/dev/null
  "$run" spirv-val --target-env vulkan1.3 "$out/coopmat_$dtype.spv"
done
# The matrix-unit peak sweep (gemmtune peak --matrix-sweep): one module per accumulator count, f32 and f16 sums.
peak_matrix=()
for accs in 1 2 4 8 16; do
  "$run" glslangValidator -V --target-env vulkan1.3 -S comp -DACCS=$accs peak_matrix.comp -o "$out/peak_matrix_f16_a$accs.spv" >/dev/null
  "$run" spirv-val --target-env vulkan1.3 "$out/peak_matrix_f16_a$accs.spv"
  python3 "$root/scripts/spirv_bf16.py" "$out/peak_matrix_f16_a$accs.spv" "$out/peak_matrix_bf16_a$accs.spv"
  "$run" glslangValidator -V --target-env vulkan1.3 -S comp -DACCS=$accs -DACC16=1 peak_matrix.comp -o "$out/peak_matrix_f16_a${accs}_h.spv" >/dev/null
  "$run" spirv-val --target-env vulkan1.3 "$out/peak_matrix_f16_a${accs}_h.spv"
  peak_matrix+=("kernels/prebuilt/peak_matrix_f16_a$accs.spv" "kernels/prebuilt/peak_matrix_bf16_a$accs.spv"
                "kernels/prebuilt/peak_matrix_f16_a${accs}_h.spv")
done
"$run" glslangValidator -V --target-env vulkan1.3 -S comp -DACCS=8 -DBUILT=1 peak_matrix.comp -o "$out/peak_matrix_f16_a8_r.spv" >/dev/null
"$run" spirv-val --target-env vulkan1.3 "$out/peak_matrix_f16_a8_r.spv"
peak_matrix+=("kernels/prebuilt/peak_matrix_f16_a8_r.spv")
cd "$root"
{
  echo "# sha256 of the sources kernels/prebuilt/*.spv were built from (scripts/regen-prebuilt.sh)"
  sha256sum kernels/gemm_coopmat.comp kernels/gemm_coopmat2.comp kernels/gemm_rowmma.comp kernels/gemm_tiled_int.comp kernels/gemm_coopmat_int.comp \
    kernels/common/gemm_common.glsl kernels/common/int8.glsl scripts/spirv_bf16.py kernels/probe_fragments.comp \
    kernels/peak_matrix.comp
  echo "# outputs"
  sha256sum kernels/prebuilt/coopmat_f16.spv kernels/prebuilt/coopmat_bf16.spv kernels/prebuilt/coopmat2_f16.spv \
    kernels/prebuilt/coopmat2_bf16.spv kernels/prebuilt/rowmma_f16.spv kernels/prebuilt/rowmma_bf16.spv kernels/prebuilt/probe_fragments_f16.spv kernels/prebuilt/tiled_dot_i8.spv \
    kernels/prebuilt/tiled_dot_u8.spv kernels/prebuilt/tiled_dot_u8i8.spv kernels/prebuilt/coopmat_i8.spv \
    kernels/prebuilt/coopmat_u8.spv kernels/prebuilt/coopmat_u8i8.spv "${peak_matrix[@]}"
} > "$out/MANIFEST"
echo "regenerated kernels/prebuilt/ ($(wc -c < "$out/coopmat_f16.spv") + $(wc -c < "$out/coopmat_bf16.spv") bytes)"
