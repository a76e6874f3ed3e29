#include "vk/instance.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "vk/check.hpp"

namespace gemmtune::vk {

namespace {
constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool has_layer(const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  return std::any_of(layers.begin(), layers.end(),
                     [&](const VkLayerProperties& l) { return std::strcmp(l.layerName, name) == 0; });
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

int device_type_rank(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return 3;
    default:
      return 4;
  }
}

bool validation_requested_by_env() {
  const char* v = std::getenv("GEMMTUNE_VALIDATION");
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

Instance::Instance(bool validation) {
  VkResult loaded = volkInitialize();
  if (loaded != VK_SUCCESS) {
    throw Error(ExitCode::unsupported,
                "Vulkan loader: libvulkan.so.1 could not be opened (install libvulkan1 and a driver)");
  }
  if (volkGetInstanceVersion() < VK_API_VERSION_1_1) {
    throw Error(ExitCode::unsupported, "Vulkan loader: version " + api_version_string(volkGetInstanceVersion()) +
                                           " is older than the required 1.1");
  }
  std::vector<const char*> layers, extensions;
  if (validation) {
    if (!has_layer(kValidationLayer)) {
      throw Error(ExitCode::unsupported, std::string("GEMMTUNE_VALIDATION: layer ") + kValidationLayer +
                                             " is not installed (Debian package vulkan-validationlayers)");
    }
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  }
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "gemmtune";
  app.pEngineName = "gemmtune";
  app.apiVersion = std::min(volkGetInstanceVersion(), uint32_t(VK_API_VERSION_1_3));
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  info.enabledLayerCount = uint32_t(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = uint32_t(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  // Synchronization validation on top of core validation: a missing barrier between the GEMM, split-k reduce
  // and copies is a hazard report, not a silently wrong timing.
  const VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = enables;
  if (validation) info.pNext = &features;
  check(vkCreateInstance(&info, nullptr, &instance_), "vkCreateInstance");
  volkLoadInstance(instance_);

  if (validation) {
    VkDebugUtilsMessengerCreateInfoEXT m{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    m.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    m.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                    VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    m.pfnUserCallback = &Instance::on_message;
    m.pUserData = this;
    VkResult r = vkCreateDebugUtilsMessengerEXT(instance_, &m, nullptr, &messenger_);
    if (r != VK_SUCCESS) {
      vkDestroyInstance(instance_, nullptr);
      throw VulkanError("vkCreateDebugUtilsMessengerEXT", r);
    }
  }
}

Instance::~Instance() {
  if (messenger_ != VK_NULL_HANDLE) vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
  if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
}

VKAPI_ATTR VkBool32 VKAPI_CALL Instance::on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                    VkDebugUtilsMessageTypeFlagsEXT,
                                                    const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  auto* self = static_cast<Instance*>(user);
  const char* text = data && data->pMessage ? data->pMessage : "(no message)";
  // Any message, warning or error, is a failure: the tests run with the layer on and must stay silent.
  self->validation_errors_.fetch_add(1);
  if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
    spdlog::error("validation: {}", text);
  } else {
    spdlog::warn("validation: {}", text);
  }
  return VK_FALSE;
}

std::vector<Instance::Candidate> Instance::devices() const {
  uint32_t count = 0;
  check(vkEnumeratePhysicalDevices(instance_, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> physical(count);
  check(vkEnumeratePhysicalDevices(instance_, &count, physical.data()), "vkEnumeratePhysicalDevices");
  std::vector<Candidate> out;
  for (uint32_t i = 0; i < count; ++i) out.push_back({physical[i], query_device_info(instance_, physical[i], i)});
  return out;
}

Instance::Candidate Instance::select(const std::string& selector) const {
  std::vector<Candidate> all = devices();
  std::vector<Candidate> usable;
  for (const Candidate& c : all) {
    if (c.info.api_version < VK_API_VERSION_1_1) {
      spdlog::info("device {} ({}) skipped: Vulkan {} is below 1.1", c.info.index, c.info.name,
                   api_version_string(c.info.api_version));
    } else if (c.info.compute_queue_family == UINT32_MAX) {
      spdlog::info("device {} ({}) skipped: no compute queue", c.info.index, c.info.name);
    } else {
      usable.push_back(c);
    }
  }
  if (usable.empty()) throw Error(ExitCode::unsupported, "no Vulkan 1.1 device with a compute queue was found");

  if (selector.empty()) {
    return *std::min_element(usable.begin(), usable.end(), [](const Candidate& a, const Candidate& b) {
      return device_type_rank(a.info.type) < device_type_rank(b.info.type);
    });
  }
  std::string available;
  for (const Candidate& c : usable)
    available += (available.empty() ? "" : ", ") + std::to_string(c.info.index) + " " + c.info.name;
  bool numeric = std::all_of(selector.begin(), selector.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (numeric && selector.size() <= 9) {
    uint32_t index = uint32_t(std::stoul(selector));
    for (const Candidate& c : usable) {
      if (c.info.index == index) return c;
    }
    throw usage_error("--device", selector, "no usable device has this index (available: " + available + ")");
  }
  std::vector<Candidate> matches;
  for (const Candidate& c : usable) {
    if (lower(uuid_string(c.info.device_uuid)) == lower(selector) ||
        lower(c.info.name).find(lower(selector)) != std::string::npos) {
      matches.push_back(c);
    }
  }
  if (matches.empty())
    throw usage_error("--device", selector, "matches no device name or UUID (available: " + available + ")");
  if (matches.size() > 1) {
    throw usage_error(
        "--device", selector,
        "matches " + std::to_string(matches.size()) + " devices; use an index or UUID (available: " + available + ")");
  }
  return matches.front();
}

}  // namespace gemmtune::vk
