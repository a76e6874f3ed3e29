// The Vulkan instance: volk loader, optional validation layer with an error counter, device enumeration.
#pragma once

#include <volk.h>

#include <atomic>
#include <string>
#include <vector>

#include "vk/device_info.hpp"

namespace gemmtune::vk {

/// True when GEMMTUNE_VALIDATION is set to a non-empty value other than "0".
bool validation_requested_by_env();

/// The default preference among device types, lower first: discrete, integrated, virtual, CPU, other.
int device_type_rank(VkPhysicalDeviceType type);

class Instance {
 public:
  /// Opens the loader (libvulkan.so.1) and creates the instance. With `validation`, the Khronos validation
  /// layer must be present (otherwise exit 3), synchronization validation is on, and every message it reports is
  /// logged and counted.
  explicit Instance(bool validation);
  ~Instance();
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  VkInstance handle() const { return instance_; }
  bool validation() const { return messenger_ != VK_NULL_HANDLE; }
  /// Validation messages (warnings and errors; core and synchronization validation) seen so far.
  uint64_t validation_errors() const { return validation_errors_.load(); }

  struct Candidate {
    VkPhysicalDevice physical;
    DeviceInfo info;
  };
  /// All physical devices, in enumeration order.
  std::vector<Candidate> devices() const;
  /// Picks a device: `selector` is an index, a device UUID or a name substring (case-insensitive); empty picks
  /// discrete > integrated > virtual > CPU. Devices below Vulkan 1.1 are skipped. Bad selector: exit 2.
  Candidate select(const std::string& selector) const;

 private:
  static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                   VkDebugUtilsMessageTypeFlagsEXT types,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data, void* user);
  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  std::atomic<uint64_t> validation_errors_{0};
};

}  // namespace gemmtune::vk
