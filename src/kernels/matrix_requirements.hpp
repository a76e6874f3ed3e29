// What the matrix-unit kernel families (coopmat, rowmma, coopmat2) need of a device: the kernels' requirements,
// asked by the families, `devices`, `peak` and the tests; the Vulkan layer only reads the capabilities.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "vk/device_info.hpp"

namespace gemmtune {

/// Why the device cannot run the coopmat family's subgroup-scope products (subgroups of 32) for `input`, or
/// nullopt when it can: "f16", "bf16" (16x16x16, f32 sums), "i8", "u8", "u8i8" (16x16x32, 32-bit wrapping sums).
/// Names the missing piece.
std::optional<std::string> coopmat_unsupported(const vk::DeviceInfo& device, const std::string& input);

/// Why the device cannot run the coopmat2 kernel for `input` ("f16" or "bf16") in workgroups of `invocations`
/// with BM x BN x BK matrices (input x input -> f32, workgroup scope), or nullopt. Names the missing piece.
std::optional<std::string> coopmat2_unsupported(const vk::DeviceInfo& device, const std::string& input,
                                                uint32_t invocations = 0, uint32_t bm = 0, uint32_t bn = 0,
                                                uint32_t bk = 0);

}  // namespace gemmtune
