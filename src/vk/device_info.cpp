#include "vk/device_info.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "core/dispatch_rules.hpp"
#include "vk/coopmat_compat.hpp"

namespace gemmtune::vk {

namespace {
std::string component_name(VkComponentTypeKHR t) {
  switch (int(t)) {
    case VK_COMPONENT_TYPE_FLOAT16_KHR:
      return "f16";
    case VK_COMPONENT_TYPE_FLOAT32_KHR:
      return "f32";
    case VK_COMPONENT_TYPE_FLOAT64_KHR:
      return "f64";
    case VK_COMPONENT_TYPE_SINT8_KHR:
      return "i8";
    case VK_COMPONENT_TYPE_SINT16_KHR:
      return "i16";
    case VK_COMPONENT_TYPE_SINT32_KHR:
      return "i32";
    case VK_COMPONENT_TYPE_SINT64_KHR:
      return "i64";
    case VK_COMPONENT_TYPE_UINT8_KHR:
      return "u8";
    case VK_COMPONENT_TYPE_UINT16_KHR:
      return "u16";
    case VK_COMPONENT_TYPE_UINT32_KHR:
      return "u32";
    case VK_COMPONENT_TYPE_UINT64_KHR:
      return "u64";
    case 1000141000:
      return "bf16";
    default:
      return "type" + std::to_string(int(t));
  }
}

std::string scope_name(VkScopeKHR s) {
  switch (int(s)) {
    case VK_SCOPE_DEVICE_KHR:
      return "device";
    case VK_SCOPE_WORKGROUP_KHR:
      return "workgroup";
    case VK_SCOPE_SUBGROUP_KHR:
      return "subgroup";
    case VK_SCOPE_QUEUE_FAMILY_KHR:
      return "queue-family";
    default:
      return "scope" + std::to_string(int(s));
  }
}

MatrixCapabilities query_matrix(VkInstance instance, VkPhysicalDevice physical, uint32_t api_version) {
  MatrixCapabilities m;
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data());
  for (const VkExtensionProperties& e : extensions) {
    if (std::strcmp(e.extensionName, VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME) == 0) m.extension = true;
    if (std::strcmp(e.extensionName, VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME) == 0) m.bf16_extension = true;
  }
  if (api_version < VK_API_VERSION_1_2) return m;

  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceCooperativeMatrixFeaturesKHR coop{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR};
  VkPhysicalDeviceShaderBfloat16FeaturesKHR bf16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_BFLOAT16_FEATURES_KHR};
  v11.pNext = &v12;
  void** tail = &v12.pNext;
  if (api_version >= VK_API_VERSION_1_3) {
    *tail = &v13;
    tail = &v13.pNext;
  }
  if (m.extension) {
    *tail = &coop;
    tail = &coop.pNext;
  }
  if (m.bf16_extension) *tail = &bf16;
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v11};
  vkGetPhysicalDeviceFeatures2(physical, &features);
  m.storage_16bit = v11.storageBuffer16BitAccess;
  m.shader_float16 = v12.shaderFloat16;
  m.shader_int8 = v12.shaderInt8;
  m.memory_model = v12.vulkanMemoryModel;
  m.memory_model_device_scope = v12.vulkanMemoryModelDeviceScope;
  m.subgroup_size_control = v13.subgroupSizeControl;
  m.full_subgroups = v13.computeFullSubgroups;
  m.integer_dot_product = api_version >= VK_API_VERSION_1_3 && v13.shaderIntegerDotProduct;
  m.feature = m.extension && coop.cooperativeMatrix;
  m.bf16_type = m.bf16_extension && bf16.shaderBFloat16Type;
  m.bf16_coopmat = m.bf16_extension && bf16.shaderBFloat16CooperativeMatrix;

  if (api_version >= VK_API_VERSION_1_3) {
    VkPhysicalDeviceVulkan13Properties p13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p13};
    vkGetPhysicalDeviceProperties2(physical, &props);
    m.min_subgroup_size = p13.minSubgroupSize;
    m.max_subgroup_size = p13.maxSubgroupSize;
  }
  if (m.extension) {
    auto get = reinterpret_cast<PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR>(
        vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR"));
    uint32_t n = 0;
    if (get && get(physical, &n, nullptr) == VK_SUCCESS && n > 0) {
      std::vector<VkCooperativeMatrixPropertiesKHR> list(n);
      for (auto& e : list) e = {VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR};
      if (get(physical, &n, list.data()) == VK_SUCCESS) {
        for (uint32_t i = 0; i < n; ++i) {
          const auto& e = list[i];
          m.shapes.push_back({e.MSize, e.NSize, e.KSize, component_name(e.AType), component_name(e.BType),
                              component_name(e.CType), component_name(e.ResultType),
                              e.saturatingAccumulation == VK_TRUE, scope_name(e.scope)});
        }
      }
    }
  }
  return m;
}

bool query_pipeline_statistics(VkPhysicalDevice physical, uint32_t api_version) {
  if (api_version < VK_API_VERSION_1_1) return false;
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data());
  bool listed = false;
  for (const VkExtensionProperties& e : extensions) {
    if (std::strcmp(e.extensionName, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME) == 0) listed = true;
  }
  if (!listed) return false;
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &executable};
  vkGetPhysicalDeviceFeatures2(physical, &features);
  return executable.pipelineExecutableInfo == VK_TRUE;
}

// The device's compute units (NVIDIA SMs, AMD CUs, Arm shader cores) where a vendor extension lists them; 0
// where none does. Screening priors use it to predict how evenly a grid of workgroups fills the device.
uint32_t query_compute_units(VkPhysicalDevice physical, uint32_t api_version) {
  if (api_version < VK_API_VERSION_1_1) return 0;
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data());
  auto listed = [&](const char* name) {
    return std::any_of(extensions.begin(), extensions.end(),
                       [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
  };
  VkPhysicalDeviceShaderSMBuiltinsPropertiesNV nv{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV};
  VkPhysicalDeviceShaderCorePropertiesAMD amd{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD};
  VkPhysicalDeviceShaderCoreBuiltinsPropertiesARM arm{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_BUILTINS_PROPERTIES_ARM};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  if (listed(VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME)) {
    props.pNext = &nv;
  } else if (listed(VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME)) {
    props.pNext = &amd;
  } else if (listed(VK_ARM_SHADER_CORE_BUILTINS_EXTENSION_NAME)) {
    props.pNext = &arm;
  } else {
    return 0;
  }
  vkGetPhysicalDeviceProperties2(physical, &props);
  if (props.pNext == &nv) return nv.shaderSMCount;
  if (props.pNext == &amd)
    return amd.shaderEngineCount * amd.shaderArraysPerEngineCount * amd.computeUnitsPerShaderArray;
  return arm.shaderCoreCount;
}

Matrix2Capabilities query_matrix2(VkInstance instance, VkPhysicalDevice physical, const MatrixCapabilities& m) {
  Matrix2Capabilities m2;
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data());
  for (const VkExtensionProperties& e : extensions) {
    if (std::strcmp(e.extensionName, VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME) == 0) m2.extension = true;
  }
  if (!m2.extension || !m.feature) return m2;
  VkPhysicalDeviceCooperativeMatrix2FeaturesNV f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_2_FEATURES_NV};
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f};
  vkGetPhysicalDeviceFeatures2(physical, &features);
  m2.workgroup_scope = f.cooperativeMatrixWorkgroupScope;
  m2.flexible_dimensions = f.cooperativeMatrixFlexibleDimensions;
  m2.per_element_operations = f.cooperativeMatrixPerElementOperations;
  m2.tensor_addressing = f.cooperativeMatrixTensorAddressing;
  VkPhysicalDeviceCooperativeMatrix2PropertiesNV p{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_2_PROPERTIES_NV};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p};
  vkGetPhysicalDeviceProperties2(physical, &props);
  m2.max_workgroup_size = p.cooperativeMatrixWorkgroupScopeMaxWorkgroupSize;
  m2.max_dimension = p.cooperativeMatrixFlexibleDimensionsMaxDimension;
  m2.reserved_shared_memory = p.cooperativeMatrixWorkgroupScopeReservedSharedMemory;
  auto get = reinterpret_cast<PFN_vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV>(
      vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV"));
  uint32_t n = 0;
  if (get && get(physical, &n, nullptr) == VK_SUCCESS && n > 0) {
    std::vector<VkCooperativeMatrixFlexibleDimensionsPropertiesNV> list(n);
    for (auto& e : list) e = {VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_FLEXIBLE_DIMENSIONS_PROPERTIES_NV};
    if (get(physical, &n, list.data()) == VK_SUCCESS) {
      for (uint32_t i = 0; i < n; ++i) {
        const auto& e = list[i];
        m2.shapes.push_back({e.MGranularity, e.NGranularity, e.KGranularity, component_name(e.AType),
                             component_name(e.BType), component_name(e.CType), component_name(e.ResultType),
                             e.saturatingAccumulation == VK_TRUE, scope_name(e.scope), e.workgroupInvocations});
      }
    }
  }
  return m2;
}
}  // namespace

uint32_t subgroup_size_to_pin(const DeviceInfo& d, uint32_t required) {
  const MatrixCapabilities& caps = d.matrix;  // the rule a kit's recording helper applies too
  return rules::subgroup_size_to_pin(required, caps.subgroup_size_control && caps.full_subgroups,
                                     caps.min_subgroup_size, caps.max_subgroup_size);
}

bool coopmat2_features(const DeviceInfo& d) {
  const Matrix2Capabilities& m2 = d.matrix2;
  return m2.extension && d.matrix.feature && m2.workgroup_scope && m2.flexible_dimensions &&
         m2.per_element_operations && m2.tensor_addressing;
}

namespace {
/// The memory heaps, each marked device-local and host-visible as its memory types are.
std::vector<MemoryHeap> query_heaps(VkPhysicalDevice physical) {
  std::vector<MemoryHeap> heaps;
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(physical, &memory);
  for (uint32_t h = 0; h < memory.memoryHeapCount; ++h) {
    MemoryHeap heap{memory.memoryHeaps[h].size, (memory.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0};
    for (uint32_t t = 0; t < memory.memoryTypeCount; ++t) {
      if (memory.memoryTypes[t].heapIndex == h &&
          (memory.memoryTypes[t].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) {
        heap.host_visible = true;
      }
    }
    heaps.push_back(heap);
  }
  return heaps;
}

/// The compute queue family gemmtune uses, and its timestamps: one with timestamps first, then a compute-only one
/// (async compute), lowest index first.
void pick_compute_queue(VkPhysicalDevice physical, DeviceInfo& d) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families.data());
  int best_score = -1;
  for (uint32_t i = 0; i < count; ++i) {
    if (!(families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)) continue;
    int score =
        (families[i].timestampValidBits > 0 ? 2 : 0) + ((families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) ? 0 : 1);
    if (score > best_score) {
      best_score = score;
      d.compute_queue_family = i;
      d.timestamp_valid_bits = families[i].timestampValidBits;
    }
  }
}

}  // namespace

DeviceInfo query_device_info(VkInstance instance, VkPhysicalDevice physical, uint32_t index) {
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
    d.driver_id = uint32_t(driver.driverID);
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
  d.subgroup_shuffle = (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
                       (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT) &&
                       (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_SHUFFLE_BIT);
  d.timestamp_period_ns = lim.timestampPeriod;

  VkPhysicalDeviceMaintenance3Properties m3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
  VkPhysicalDeviceMaintenance4Properties m4{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES};
  if (basic.apiVersion >= VK_API_VERSION_1_3) m3.pNext = &m4;  // maxBufferSize: Vulkan 1.3 (maintenance4)
  VkPhysicalDeviceProperties2 props2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &m3};
  vkGetPhysicalDeviceProperties2(physical, &props2);
  d.max_memory_allocation_size = m3.maxMemoryAllocationSize;
  d.max_buffer_size = basic.apiVersion >= VK_API_VERSION_1_3 ? m4.maxBufferSize : UINT64_MAX;
  d.matrix = query_matrix(instance, physical, std::min(basic.apiVersion, uint32_t(VK_API_VERSION_1_3)));
  d.matrix2 = query_matrix2(instance, physical, d.matrix);
  d.pipeline_statistics = query_pipeline_statistics(physical, basic.apiVersion);
  d.compute_units = query_compute_units(physical, basic.apiVersion);
  d.heaps = query_heaps(physical);
  pick_compute_queue(physical, d);
  return d;
}

std::string device_type_name(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return "cpu";
    default:
      return "other";
  }
}

std::string api_version_string(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
         std::to_string(VK_API_VERSION_PATCH(v));
}

std::string decode_driver_version(uint32_t vendor_id, uint32_t raw) {
  return rules::driver_version_text(vendor_id, raw);  // what a kit compares (src/core/dispatch_rules.hpp)
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
