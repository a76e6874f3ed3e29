// What gemmtune needs to know about a physical device: identity, limits, timing support.
#pragma once

#include <volk.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gemmtune::vk {

/// One entry of vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR, with names for its component types and scope.
struct CoopmatShape {
  uint32_t m = 0, n = 0, k = 0;
  std::string a, b, c, result;  ///< "f16", "bf16", "f32", "i8", ...
  bool saturating = false;
  std::string scope;  ///< "subgroup", "workgroup", ...
};

/// One entry of vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV: matrices of any multiple of
/// the granularities, for these types, at this scope, in workgroups of `invocations` (workgroup scope).
struct FlexibleCoopmatShape {
  uint32_t m_granularity = 0, n_granularity = 0, k_granularity = 0;
  std::string a, b, c, result;
  bool saturating = false;
  std::string scope;
  uint32_t invocations = 0;
};

/// VK_NV_cooperative_matrix2: what the coopmat2 variant needs beyond MatrixCapabilities.
struct Matrix2Capabilities {
  bool extension = false;
  bool workgroup_scope = false, flexible_dimensions = false, per_element_operations = false, tensor_addressing = false;
  uint32_t max_workgroup_size = 0;      ///< cooperativeMatrixWorkgroupScopeMaxWorkgroupSize
  uint32_t max_dimension = 0;           ///< cooperativeMatrixFlexibleDimensionsMaxDimension
  uint32_t reserved_shared_memory = 0;  ///< cooperativeMatrixWorkgroupScopeReservedSharedMemory, bytes
  std::vector<FlexibleCoopmatShape> shapes;
};

/// What the cooperative-matrix variant needs, read from the device (never guessed from the vendor).
struct MatrixCapabilities {
  bool extension = false;  ///< VK_KHR_cooperative_matrix
  bool feature = false;    ///< cooperativeMatrix
  std::vector<CoopmatShape> shapes;
  bool storage_16bit = false;   ///< storageBuffer16BitAccess
  bool shader_float16 = false;  ///< shaderFloat16 (16-bit values in shared memory)
  bool shader_int8 = false;     ///< shaderInt8 (8-bit integer matrices)
  bool memory_model = false;    ///< vulkanMemoryModel
  /// vulkanMemoryModelDeviceScope: with the memory model enabled, device-scope atomics and barriers need it
  bool memory_model_device_scope = false;
  bool subgroup_size_control = false, full_subgroups = false;  ///< subgroupSizeControl, computeFullSubgroups
  uint32_t min_subgroup_size = 0, max_subgroup_size = 0;
  bool bf16_extension = false, bf16_type = false, bf16_coopmat = false;  ///< VK_KHR_shader_bfloat16 and features
  bool integer_dot_product = false;  ///< shaderIntegerDotProduct (Vulkan 1.3): packed 8-bit dot products
};

/// One memory heap, and the property flags of the memory types that live in it.
struct MemoryHeap {
  uint64_t size = 0;
  bool device_local = false;
  bool host_visible = false;  ///< some memory type of this heap is host-visible (mapped staging, ReBAR)
};

struct DeviceInfo {
  uint32_t index = 0;  ///< position in vkEnumeratePhysicalDevices
  std::string name;
  uint32_t vendor_id = 0, device_id = 0;
  uint32_t driver_version_raw = 0;
  std::string driver_version;  ///< decoded per vendor
  std::string driver_name, driver_info;
  uint32_t driver_id = 0;  ///< VkDriverId (0 below Vulkan 1.2)
  uint32_t api_version = 0;
  VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  std::array<uint8_t, VK_UUID_SIZE> pipeline_cache_uuid{};
  std::array<uint8_t, VK_UUID_SIZE> device_uuid{};

  uint32_t max_shared_memory = 0;  ///< maxComputeSharedMemorySize, bytes
  uint32_t max_invocations = 0;    ///< maxComputeWorkGroupInvocations
  std::array<uint32_t, 3> max_workgroup_size{};
  std::array<uint32_t, 3> max_workgroup_count{};
  uint32_t max_storage_buffer_range = 0;
  uint64_t max_memory_allocation_size = 0;
  uint64_t max_buffer_size = UINT64_MAX;  ///< maxBufferSize (Vulkan 1.3); no limit stated before 1.3
  uint32_t max_push_constants_size = 0;
  uint32_t subgroup_size = 0;
  /// Compute shaders may use subgroup shuffles (VkPhysicalDeviceSubgroupProperties: basic and shuffle
  /// operations in the compute stage): the row-dot kernel's reduction.
  bool subgroup_shuffle = false;
  /// VK_KHR_pipeline_executable_properties with pipelineExecutableInfo: the driver reports each compiled
  /// pipeline's statistics (register counts, spills, instruction counts: named by the driver).
  bool pipeline_statistics = false;
  /// Compute units (NVIDIA SMs, AMD CUs, Arm shader cores) where a vendor extension lists them; 0: unknown.
  uint32_t compute_units = 0;

  MatrixCapabilities matrix;
  Matrix2Capabilities matrix2;
  std::vector<MemoryHeap> heaps;

  uint32_t compute_queue_family = UINT32_MAX;
  uint32_t timestamp_valid_bits = 0;  ///< of the compute queue family; 0 = no timestamps
  float timestamp_period_ns = 0.0f;
  bool timestamps() const { return timestamp_valid_bits > 0 && timestamp_period_ns > 0.0f; }
};

/// Reads everything above from a physical device (needs Vulkan 1.1 for the subgroup and ID properties).
DeviceInfo query_device_info(VkInstance instance, VkPhysicalDevice physical, uint32_t index);

/// Whether the device has VK_NV_cooperative_matrix2 with the four features the coopmat2 kernel uses (workgroup
/// scope, flexible dimensions, per-element operations, tensor addressing): the device enables them then. What a
/// kernel needs beyond that is the kernel family's to say (src/kernels/matrix_requirements.hpp).
bool coopmat2_features(const DeviceInfo& device);

/// The subgroup size to pin at pipeline creation for a kernel that needs `required` (0: none): pinned only
/// where the device can select it; elsewhere qualification has checked that the fixed size is `required`.
uint32_t subgroup_size_to_pin(const DeviceInfo& device, uint32_t required);

std::string device_type_name(VkPhysicalDeviceType type);
std::string api_version_string(uint32_t version);
/// NVIDIA packs 10.8.8.6 bits; Intel on Windows 18.14; others follow VK_MAKE_API_VERSION.
std::string decode_driver_version(uint32_t vendor_id, uint32_t raw);
std::string uuid_string(const std::array<uint8_t, VK_UUID_SIZE>& uuid);
/// Lower-case file-name-safe form of the device name ("NVIDIA H200" -> "nvidia-h200").
std::string device_slug(const std::string& name);

}  // namespace gemmtune::vk
