// Devices for the search-space tests: what each family's qualification and limits read, and nothing else.
#pragma once

#include <cstdint>

#include "vk/device_info.hpp"

namespace gemmtune {

/// Limits alone: `shared` bytes of shared memory, `invocations` a workgroup.
inline vk::DeviceInfo fake_device(uint32_t shared, uint32_t invocations, uint32_t max_groups = 65535) {
  vk::DeviceInfo d;
  d.name = "fake";
  d.max_shared_memory = shared;
  d.max_invocations = invocations;
  d.max_workgroup_size = {invocations, invocations, 64};
  d.max_workgroup_count = {max_groups, max_groups, max_groups};
  d.max_storage_buffer_range = 1u << 30;
  return d;
}

/// A device with what the H200 reports for cooperative matrices.
inline vk::DeviceInfo matrix_device() {
  vk::DeviceInfo d = fake_device(49152, 1024);
  d.name = "matrix";
  d.subgroup_size = 32;
  vk::MatrixCapabilities& m = d.matrix;
  m.extension = m.feature = true;
  m.shapes = {{16, 16, 16, "f16", "f16", "f32", "f32", false, "subgroup"},
              {16, 16, 16, "bf16", "bf16", "f32", "f32", false, "subgroup"},
              {16, 16, 32, "i8", "i8", "i32", "i32", false, "subgroup"},
              {16, 16, 32, "u8", "u8", "u32", "u32", false, "subgroup"}};
  m.storage_16bit = m.shader_float16 = m.shader_int8 = m.memory_model = true;
  m.subgroup_size_control = m.full_subgroups = true;
  m.min_subgroup_size = m.max_subgroup_size = 32;
  m.bf16_extension = m.bf16_type = m.bf16_coopmat = true;
  return d;
}

/// matrix_device() with VK_NV_cooperative_matrix2: workgroup-scope f16 and bf16 matrices in multiples of 16 x 16
/// x 16 for workgroups of 128 and 256 invocations.
inline vk::DeviceInfo matrix2_device() {
  vk::DeviceInfo d = matrix_device();
  vk::Matrix2Capabilities& m2 = d.matrix2;
  m2.extension = m2.workgroup_scope = m2.flexible_dimensions = m2.per_element_operations = m2.tensor_addressing = true;
  m2.max_workgroup_size = 256;
  m2.max_dimension = 256;
  for (const char* t : {"f16", "bf16"}) {
    for (uint32_t n : {128u, 256u}) m2.shapes.push_back({16, 16, 16, t, t, "f32", "f32", false, "workgroup", n});
  }
  return d;
}

/// A device that prunes nothing for its limits: every matrix shape, subgroup shuffles, unbounded memory.
inline vk::DeviceInfo capable_device() {
  vk::DeviceInfo d = matrix2_device();
  d.max_shared_memory = 1u << 30;
  d.max_storage_buffer_range = UINT32_MAX;
  d.max_memory_allocation_size = UINT64_MAX;
  d.subgroup_shuffle = true;
  d.matrix.memory_model_device_scope = true;
  return d;
}

}  // namespace gemmtune
