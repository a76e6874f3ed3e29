#include "vk/device_info.hpp"

#include <cstdio>
#include <vector>

namespace gemmtune::vk {

DeviceInfo query_device_info(VkPhysicalDevice physical, uint32_t index) {
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceIDProperties ids{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
  VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  subgroup.pNext = &ids;
  VkPhysicalDeviceProperties basic;
  vkGetPhysicalDeviceProperties(physical, &basic);
  if (basic.apiVersion >= VK_API_VERSION_1_2) ids.pNext = &driver;
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  props.pNext = &subgroup;
  vkGetPhysicalDeviceProperties2(physical, &props);
  const VkPhysicalDeviceLimits& lim = props.properties.limits;

  DeviceInfo d;
  d.index = index;
  d.name = props.properties.deviceName;
  d.vendor_id = props.properties.vendorID;
  d.device_id = props.properties.deviceID;
  d.driver_version_raw = props.properties.driverVersion;
  d.driver_version = decode_driver_version(d.vendor_id, d.driver_version_raw);
  if (basic.apiVersion >= VK_API_VERSION_1_2) {
    d.driver_name = driver.driverName;
    d.driver_info = driver.driverInfo;
  }
  d.api_version = props.properties.apiVersion;
  d.type = props.properties.deviceType;
  std::copy(std::begin(props.properties.pipelineCacheUUID), std::end(props.properties.pipelineCacheUUID),
            d.pipeline_cache_uuid.begin());
  std::copy(std::begin(ids.deviceUUID), std::end(ids.deviceUUID), d.device_uuid.begin());
  d.max_shared_memory = lim.maxComputeSharedMemorySize;
  d.max_invocations = lim.maxComputeWorkGroupInvocations;
  for (int i = 0; i < 3; ++i) {
    d.max_workgroup_size[i] = lim.maxComputeWorkGroupSize[i];
    d.max_workgroup_count[i] = lim.maxComputeWorkGroupCount[i];
  }
  d.max_storage_buffer_range = lim.maxStorageBufferRange;
  d.max_push_constants_size = lim.maxPushConstantsSize;
  d.subgroup_size = subgroup.subgroupSize;
  d.timestamp_period_ns = lim.timestampPeriod;

  VkPhysicalDeviceMaintenance3Properties m3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
  VkPhysicalDeviceProperties2 props2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &m3};
  vkGetPhysicalDeviceProperties2(physical, &props2);
  d.max_memory_allocation_size = m3.maxMemoryAllocationSize;

  // Prefer a family with timestamps, then a compute-only one (async compute), lowest index first.
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families.data());
  int best_score = -1;
  for (uint32_t i = 0; i < count; ++i) {
    if (!(families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)) continue;
    int score = (families[i].timestampValidBits > 0 ? 2 : 0) + ((families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) ? 0 : 1);
    if (score > best_score) {
      best_score = score;
      d.compute_queue_family = i;
      d.timestamp_valid_bits = families[i].timestampValidBits;
    }
  }
  return d;
}

std::string device_type_name(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
  }
}

std::string api_version_string(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
         std::to_string(VK_API_VERSION_PATCH(v));
}

std::string decode_driver_version(uint32_t vendor_id, uint32_t raw) {
  char buf[64];
  if (vendor_id == 0x10DE) {  // NVIDIA
    std::snprintf(buf, sizeof buf, "%u.%u.%u.%u", (raw >> 22) & 0x3ff, (raw >> 14) & 0xff, (raw >> 6) & 0xff,
                  raw & 0x3f);
  } else {
#if defined(_WIN32)
    if (vendor_id == 0x8086) {
      std::snprintf(buf, sizeof buf, "%u.%u", raw >> 14, raw & 0x3fff);
      return buf;
    }
#endif
    std::snprintf(buf, sizeof buf, "%u.%u.%u", VK_API_VERSION_MAJOR(raw), VK_API_VERSION_MINOR(raw),
                  VK_API_VERSION_PATCH(raw));
  }
  return buf;
}

std::string uuid_string(const std::array<uint8_t, VK_UUID_SIZE>& uuid) {
  static const char* hex = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < uuid.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
    s += hex[uuid[i] >> 4];
    s += hex[uuid[i] & 15];
  }
  return s;
}

std::string device_slug(const std::string& name) {
  std::string s;
  for (char c : name) {
    bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (c >= 'A' && c <= 'Z') {
      c = char(c - 'A' + 'a');
      alnum = true;
    }
    if (alnum) {
      s += c;
    } else if (!s.empty() && s.back() != '-') {
      s += '-';
    }
  }
  while (!s.empty() && s.back() == '-') s.pop_back();
  return s.empty() ? "device" : s;
}

}  // namespace gemmtune::vk
