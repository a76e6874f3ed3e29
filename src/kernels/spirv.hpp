// The embedded SPIR-V of every kernel (generated at build time from kernels/*.comp).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/problem.hpp"

namespace gemmtune {

/// An embedded module's words as a span.
template <size_t N>
std::span<const uint32_t> spirv_words(const uint32_t (&array)[N]) {
  return {array, N};
}

std::span<const uint32_t> tiled_spirv(DType dtype);
std::span<const uint32_t> fewrows_spirv(DType dtype);
std::span<const uint32_t> rowdot_spirv(DType dtype);  ///< float types only (empty for 8-bit integers)
std::span<const uint32_t> naive_spirv(DType dtype);
std::span<const uint32_t> coopmat_spirv(DType dtype);   ///< f16 and bf16 only (empty for f32)
std::span<const uint32_t> rowmma_spirv(DType dtype);    ///< f16 and bf16 only (kernels/prebuilt/, glslang 15)
std::span<const uint32_t> coopmat2_spirv(DType dtype);  ///< f16 and bf16 only (empty for f32)
/// The tiled integer kernel with packed dot products (kernels/prebuilt/, glslang 15); empty for float types.
std::span<const uint32_t> tiled_dot_spirv(DType dtype);
/// The split-k reduce pass: f32 planes with the epilogue, or int32 planes for 8-bit integer inputs.
std::span<const uint32_t> splitk_reduce_spirv(DType dtype);
std::span<const uint32_t> epilogue_spirv();
/// Compares C with its expected image on the device (kernels/check_result.comp; src/run/device_check.hpp).
std::span<const uint32_t> check_result_spirv();
std::span<const uint32_t> test_hang_spirv();
/// A planted fault's module (kernels/CMakeLists.txt: unroll_tail, last_slice, dropped_plane, reversed_planes,
/// rowdot_head, edge_column, beta_reads_c, bias_shift and gelu_constant for the float types, zero_point for the 8-bit
/// ones); empty for an unknown fault or another type.
std::span<const uint32_t> fault_spirv(const std::string& fault, DType dtype);

}  // namespace gemmtune
