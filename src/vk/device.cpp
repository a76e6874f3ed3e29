#include "vk/device.hpp"

#include <spdlog/spdlog.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <vector>

#include "core/checked_blob.hpp"
#include "core/files.hpp"
#include "vk/check.hpp"
#include "vk/coopmat_compat.hpp"
#include "vk/fault_injection.hpp"

namespace gemmtune::vk {

std::string cache_folder() {
  if (const char* dir = std::getenv("GEMMTUNE_CACHE_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/gemmtune";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/gemmtune";
  return "";
}

Device::Device(const Instance&, const Instance::Candidate& chosen) : physical_(chosen.physical), info_(chosen.info) {
  vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = info_.compute_queue_family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  // Enable what the kernels can use and the device supports (read in query_device_info, never assumed).
  const MatrixCapabilities& m = info_.matrix;
  std::vector<const char*> extensions;
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceCooperativeMatrixFeaturesKHR coop{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR};
  VkPhysicalDeviceShaderBfloat16FeaturesKHR bf16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_BFLOAT16_FEATURES_KHR};
  VkPhysicalDeviceCooperativeMatrix2FeaturesNV coop2{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_2_FEATURES_NV};
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  void* chain = nullptr;
  if (info_.api_version >= VK_API_VERSION_1_2) {
    v11.storageBuffer16BitAccess = m.storage_16bit;
    v12.shaderFloat16 = m.shader_float16;
    v12.shaderInt8 = m.shader_int8;
    v12.vulkanMemoryModel = m.memory_model;
    v12.vulkanMemoryModelDeviceScope = m.memory_model && m.memory_model_device_scope;
    v11.pNext = &v12;
    chain = &v11;
    void** tail = &v12.pNext;
    if (info_.api_version >= VK_API_VERSION_1_3) {
      v13.subgroupSizeControl = m.subgroup_size_control;
      v13.computeFullSubgroups = m.full_subgroups;
      v13.shaderIntegerDotProduct = m.integer_dot_product;
      // Required of every Vulkan 1.3 device; modules built for Vulkan 1.3 (kernels/prebuilt/) size their
      // workgroups with LocalSizeId, which needs it enabled.
      v13.maintenance4 = VK_TRUE;
      *tail = &v13;
      tail = &v13.pNext;
    }
    if (m.feature) {
      extensions.push_back(VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME);
      coop.cooperativeMatrix = VK_TRUE;
      *tail = &coop;
      tail = &coop.pNext;
    }
    if (m.bf16_type) {
      extensions.push_back(VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME);
      bf16.shaderBFloat16Type = VK_TRUE;
      bf16.shaderBFloat16CooperativeMatrix = m.bf16_coopmat;
      *tail = &bf16;
      tail = &bf16.pNext;
    }
    if (coopmat2_features(info_)) {
      extensions.push_back(VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME);
      coop2.cooperativeMatrixWorkgroupScope = VK_TRUE;
      coop2.cooperativeMatrixFlexibleDimensions = VK_TRUE;
      coop2.cooperativeMatrixPerElementOperations = VK_TRUE;
      coop2.cooperativeMatrixTensorAddressing = VK_TRUE;
      *tail = &coop2;
      tail = &coop2.pNext;
    }
    if (info_.pipeline_statistics) {
      extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
      executable.pipelineExecutableInfo = VK_TRUE;
      *tail = &executable;
    }
  }
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.pNext = chain;
  info.enabledExtensionCount = uint32_t(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue_info;
  check(vkCreateDevice(physical_, &info, nullptr, &device_), "vkCreateDevice");
  volkLoadDevice(device_);
  install_fault_injection();  // test builds only; see fault_injection.hpp
  vkGetDeviceQueue(device_, info_.compute_queue_family, 0, &queue_);
  load_pipeline_cache();
}

Device::~Device() {
  if (device_ == VK_NULL_HANDLE) return;
  vkDeviceWaitIdle(device_);
  save_pipeline_cache();
  if (pipeline_cache_ != VK_NULL_HANDLE) vkDestroyPipelineCache(device_, pipeline_cache_, nullptr);
  vkDestroyDevice(device_, nullptr);
}

bool pipeline_cache_bypassed() {
  const char* off = std::getenv("GEMMTUNE_NO_PIPELINE_CACHE");
  return off && *off && std::string(off) != "0";
}

namespace {
/// The data of the cache file at `path`: empty where there is none; nullopt where it cannot be used (`why` says
/// why: damaged, unreadable).
std::optional<std::string> read_cache_file(const std::string& path, std::string& why) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::string();
  try {
    return unframe_blob(read_file(path), why);
  } catch (const Error& e) {
    why = e.what();
    return std::nullopt;
  }
}
}  // namespace

VkPipelineCache Device::new_pipeline_cache(const std::string& data) const {
  VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  info.initialDataSize = data.size();
  info.pInitialData = data.empty() ? nullptr : data.data();
  VkPipelineCache cache = VK_NULL_HANDLE;
  // The driver checks the header (vendor, device, cache UUID) and ignores data from elsewhere; if it refuses the
  // data outright, start empty.
  if (vkCreatePipelineCache(device_, &info, nullptr, &cache) != VK_SUCCESS) {
    info.initialDataSize = 0;
    info.pInitialData = nullptr;
    check(vkCreatePipelineCache(device_, &info, nullptr, &cache), "vkCreatePipelineCache");
  }
  return cache;
}

void Device::merge_into_pipeline_cache(const std::string& data) const {
  if (data.empty()) return;
  VkPipelineCache source = new_pipeline_cache(data);
  const VkResult merged = vkMergePipelineCaches(device_, pipeline_cache_, 1, &source);
  vkDestroyPipelineCache(device_, source, nullptr);
  check(merged, "vkMergePipelineCaches");
}

bool Device::pipeline_built(uint64_t recipe_key) const {
  const std::lock_guard<std::mutex> lock(built_mutex_);
  return built_.count(recipe_key) > 0;
}

void Device::note_pipeline_built(uint64_t recipe_key) const {
  const std::lock_guard<std::mutex> lock(built_mutex_);
  built_.insert(recipe_key);
}

std::string Device::pipeline_cache_data() const {
  size_t size = 0;
  if (vkGetPipelineCacheData(device_, pipeline_cache_, &size, nullptr) != VK_SUCCESS || size == 0) return "";
  std::string data(size, '\0');
  if (vkGetPipelineCacheData(device_, pipeline_cache_, &size, data.data()) != VK_SUCCESS) return "";
  data.resize(size);
  return data;
}

void Device::load_pipeline_cache() {
  const std::string folder = pipeline_cache_bypassed() ? "" : cache_folder();
  std::string data;
  if (!folder.empty()) {
    pipeline_cache_path_ =
        folder + "/pipelines-" + device_slug(info_.name) + "-" + uuid_string(info_.pipeline_cache_uuid) + ".bin";
    std::string why;
    if (std::optional<std::string> read = read_cache_file(pipeline_cache_path_, why)) {
      data = std::move(*read);
    } else {
      spdlog::warn("pipeline cache {} ignored: {}; it is rewritten at the end of the run", pipeline_cache_path_, why);
      rewrite_cache_file_ = true;
    }
  }
  pipeline_cache_ = new_pipeline_cache(data);
  loaded_cache_bytes_ = pipeline_cache_data().size();
}

void Device::save_pipeline_cache() noexcept {
  if (pipeline_cache_path_.empty() || pipeline_cache_ == VK_NULL_HANDLE) return;
  try {
    // Nothing built that the file did not hold: leave it as it is.
    if (!rewrite_cache_file_ && pipeline_cache_data().size() == loaded_cache_bytes_ &&
        std::filesystem::exists(pipeline_cache_path_))
      return;
    std::filesystem::create_directories(std::filesystem::path(pipeline_cache_path_).parent_path());
    // Runs on one host take turns, and each keeps what the others saved since it loaded the file.
    FileLock lock(pipeline_cache_path_);
    std::string why;
    if (std::optional<std::string> saved = read_cache_file(pipeline_cache_path_, why))
      merge_into_pipeline_cache(*saved);
    const std::string data = pipeline_cache_data();
    if (!data.empty()) write_file_atomic(pipeline_cache_path_, frame_blob(data));
  } catch (const std::exception& e) {
    spdlog::warn("pipeline cache not saved: {}", e.what());
  }
}

uint32_t Device::memory_type(uint32_t type_bits, VkMemoryPropertyFlags required,
                             VkMemoryPropertyFlags preferred) const {
  uint32_t fallback = UINT32_MAX;
  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
    if (!(type_bits & (1u << i))) continue;
    VkMemoryPropertyFlags flags = memory_.memoryTypes[i].propertyFlags;
    if ((flags & required) != required) continue;
    if ((flags & preferred) == preferred) return i;
    if (fallback == UINT32_MAX) fallback = i;
  }
  if (fallback == UINT32_MAX)
    throw Error(ExitCode::unsupported, info_.name + ": no memory type with the required properties");
  return fallback;
}

VkDeviceSize Device::heap_size_for(uint32_t type_bits, VkMemoryPropertyFlags required) const {
  VkDeviceSize best = 0;
  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
    if (!(type_bits & (1u << i))) continue;
    if ((memory_.memoryTypes[i].propertyFlags & required) != required) continue;
    best = std::max(best, memory_.memoryHeaps[memory_.memoryTypes[i].heapIndex].size);
  }
  return best;
}

}  // namespace gemmtune::vk
