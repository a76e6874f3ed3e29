// What the matrix-unit kernel families need of a device, from the capabilities the Vulkan layer reads.
#include "kernels/matrix_requirements.hpp"

#include <algorithm>

namespace gemmtune {

std::optional<std::string> coopmat_unsupported(const vk::DeviceInfo& d, const std::string& input) {
  const vk::MatrixCapabilities& m = d.matrix;
  if (!m.extension) return "the device lacks VK_KHR_cooperative_matrix";
  if (!m.feature) return "the cooperativeMatrix feature is not supported";
  // 16-bit floats: 16x16x16 with f32 sums. 8-bit integers (i8, u8, or u8i8 = unsigned A, signed B): 16x16x32 with
  // 32-bit sums, unsigned only for u8 x u8, and not saturating (the sums must wrap like int32).
  const bool integer = input == "i8" || input == "u8" || input == "u8i8";
  const std::string a = input == "u8i8" ? "u8" : input, b = input == "u8i8" ? "i8" : input;
  const std::string sum = !integer ? "f32" : input == "u8" ? "u32" : "i32";
  const uint32_t k = integer ? 32 : 16;
  bool listed = false;
  for (const vk::CoopmatShape& s : m.shapes) {
    listed |= s.m == 16 && s.n == 16 && s.k == k && s.a == a && s.b == b && s.c == sum && s.result == sum &&
              !s.saturating && s.scope == "subgroup";
  }
  if (!listed)
    return "no 16x16x" + std::to_string(k) + " " + a + " x " + b + " -> " + sum +
           " subgroup-scope cooperative matrix is listed";
  if (integer) {
    if (!m.shader_int8) return "shaderInt8 is not supported";
  } else {
    if (!m.storage_16bit) return "storageBuffer16BitAccess is not supported";
    if (!m.shader_float16) return "shaderFloat16 is not supported";
  }
  if (!m.memory_model) return "vulkanMemoryModel is not supported";
  const bool fixed_32 =
      d.subgroup_size == 32 && (m.min_subgroup_size == 0 || (m.min_subgroup_size == 32 && m.max_subgroup_size == 32));
  const bool pinnable =
      m.subgroup_size_control && m.full_subgroups && m.min_subgroup_size <= 32 && m.max_subgroup_size >= 32;
  if (!fixed_32 && !pinnable)
    return "subgroups of 32 are neither the fixed size nor selectable (subgroup size " +
           std::to_string(d.subgroup_size) + ")";
  if (input == "bf16") {
    if (!m.bf16_extension) return "the device lacks VK_KHR_shader_bfloat16";
    if (!m.bf16_type || !m.bf16_coopmat)
      return "shaderBFloat16Type or shaderBFloat16CooperativeMatrix is not supported";
  }
  return std::nullopt;
}

std::optional<std::string> coopmat2_unsupported(const vk::DeviceInfo& d, const std::string& input, uint32_t invocations,
                                                uint32_t bm, uint32_t bn, uint32_t bk) {
  const vk::Matrix2Capabilities& m2 = d.matrix2;
  if (!m2.extension) return "the device lacks VK_NV_cooperative_matrix2";
  if (!d.matrix.feature) return "the cooperativeMatrix feature is not supported";
  if (!m2.workgroup_scope) return "cooperativeMatrixWorkgroupScope is not supported";
  if (!m2.flexible_dimensions) return "cooperativeMatrixFlexibleDimensions is not supported";
  if (!m2.per_element_operations) return "cooperativeMatrixPerElementOperations is not supported";
  if (!m2.tensor_addressing) return "cooperativeMatrixTensorAddressing is not supported";
  const vk::MatrixCapabilities& m = d.matrix;
  if (!m.storage_16bit) return "storageBuffer16BitAccess is not supported";
  if (!m.shader_float16) return "shaderFloat16 is not supported";
  if (!m.memory_model) return "vulkanMemoryModel is not supported";
  if (input == "bf16" && (!m.bf16_type || !m.bf16_coopmat))
    return "shaderBFloat16Type or shaderBFloat16CooperativeMatrix is not supported";
  auto types_match = [&](const vk::FlexibleCoopmatShape& s) {
    return s.a == input && s.b == input && s.c == "f32" && s.result == "f32" && !s.saturating && s.scope == "workgroup";
  };
  if (std::none_of(m2.shapes.begin(), m2.shapes.end(), types_match))
    return "no workgroup-scope " + input + " x " + input + " -> f32 flexible-dimension matrix is listed";
  if (invocations == 0) return std::nullopt;  // the family as a whole; the rest is per config
  if (invocations > m2.max_workgroup_size)
    return "workgroup-scope matrices allow at most " + std::to_string(m2.max_workgroup_size) + " invocations";
  const uint32_t largest = std::max({bm, bn, bk});
  if (m2.max_dimension > 0 && largest > m2.max_dimension)
    return "matrix dimension " + std::to_string(largest) + " exceeds the device's " + std::to_string(m2.max_dimension);
  for (const vk::FlexibleCoopmatShape& s : m2.shapes) {
    if (types_match(s) && s.invocations == invocations && s.m_granularity > 0 && s.n_granularity > 0 &&
        s.k_granularity > 0 && bm % s.m_granularity == 0 && bn % s.n_granularity == 0 && bk % s.k_granularity == 0)
      return std::nullopt;
  }
  return "no listed granularity fits " + std::to_string(bm) + "x" + std::to_string(bn) + "x" + std::to_string(bk) +
         " in workgroups of " + std::to_string(invocations);
}

}  // namespace gemmtune
