// What gemmtune needs to know about a physical device: identity, limits, timing support.
#pragma once

#include <volk.h>

#include <array>
#include <cstdint>
#include <string>

namespace gemmtune::vk {

struct DeviceInfo {
  uint32_t index = 0;  ///< position in vkEnumeratePhysicalDevices
  std::string name;
  uint32_t vendor_id = 0, device_id = 0;
  uint32_t driver_version_raw = 0;
  std::string driver_version;  ///< decoded per vendor
  std::string driver_name, driver_info;
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
  uint32_t max_push_constants_size = 0;
  uint32_t subgroup_size = 0;

  uint32_t compute_queue_family = UINT32_MAX;
  uint32_t timestamp_valid_bits = 0;  ///< of the compute queue family; 0 = no timestamps
  float timestamp_period_ns = 0.0f;
  bool timestamps() const { return timestamp_valid_bits > 0 && timestamp_period_ns > 0.0f; }
};

/// Reads everything above from a physical device (needs Vulkan 1.1 for the subgroup and ID properties).
DeviceInfo query_device_info(VkPhysicalDevice physical, uint32_t index);

std::string device_type_name(VkPhysicalDeviceType type);
std::string api_version_string(uint32_t version);
/// NVIDIA packs 10.8.8.6 bits; Intel on Windows 18.14; others follow VK_MAKE_API_VERSION.
std::string decode_driver_version(uint32_t vendor_id, uint32_t raw);
std::string uuid_string(const std::array<uint8_t, VK_UUID_SIZE>& uuid);
/// Lower-case file-name-safe form of the device name ("NVIDIA H200" -> "nvidia-h200").
std::string device_slug(const std::string& name);

}  // namespace gemmtune::vk
