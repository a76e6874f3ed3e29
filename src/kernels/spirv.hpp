// The embedded SPIR-V of every kernel, by name: "<module>_<dtype>" for the modules kernels/CMakeLists.txt builds
// (gemmtune_add_kernel) and the names kernels/prebuilt/modules.txt lists.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "core/problem.hpp"

namespace gemmtune {

struct EmbeddedModule {
  std::string_view name;
  std::span<const uint32_t> words;
};

/// Every module of the build (generated: spirv_modules.cpp).
std::span<const EmbeddedModule> embedded_modules();

/// The module called `name`, or an empty span where the build has none.
std::span<const uint32_t> spirv_module(std::string_view name);
/// The module "<module>_<dtype>" (empty where the kernel has no build for that input type).
std::span<const uint32_t> spirv_module(std::string_view module, DType dtype);
/// The per-input-type modules "<module>_<dtype>" as a family's `spirv` (KernelFamily).
std::function<std::span<const uint32_t>(DType)> spirv_modules_named(std::string module);

/// The split-k reduce pass: f32 planes with the epilogue, or int32 planes for 8-bit integer inputs.
std::span<const uint32_t> splitk_reduce_spirv(DType dtype);
/// The pre-pass of a kind (rules::Prepass) for an input type: weights in blocks decoded (kernels/decode_blocks.comp),
/// f32 split into bfloat16 parts (kernels/split_planes.comp), 16-bit rows aligned (kernels/align_planes.comp), op(A)
/// as two 8-bit parts a block (kernels/quantize_a.comp); empty for none or a type it has no build for.
std::span<const uint32_t> prepass_spirv(rules::Prepass kind, DType dtype);
/// The unfused epilogue pass (bias and activation over C), which verification compares the fused one with.
std::span<const uint32_t> epilogue_spirv();
/// Compares C with its expected image on the device (kernels/check_result.comp; src/run/device_check.hpp).
std::span<const uint32_t> check_result_spirv();

}  // namespace gemmtune
