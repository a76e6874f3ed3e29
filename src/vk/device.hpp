// The logical device: one compute queue, memory-type lookup and a persistent pipeline cache.
#pragma once

#include <volk.h>

#include <string>

#include "vk/device_info.hpp"
#include "vk/instance.hpp"

namespace gemmtune::vk {

/// Folder for the persistent pipeline cache: $GEMMTUNE_CACHE_DIR, else $XDG_CACHE_HOME/gemmtune, else
/// $HOME/.cache/gemmtune.
std::string cache_folder();

class Device {
 public:
  Device(const Instance& instance, const Instance::Candidate& chosen);
  ~Device();  ///< saves the pipeline cache (failures are logged, never thrown)
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  VkDevice handle() const { return device_; }
  VkPhysicalDevice physical() const { return physical_; }
  VkQueue queue() const { return queue_; }
  const DeviceInfo& info() const { return info_; }
  VkPipelineCache pipeline_cache() const { return pipeline_cache_; }

  /// A memory type allowed by `type_bits` with all `required` flags, preferring one that also has `preferred`.
  /// Throws (exit 3) when none exists.
  uint32_t memory_type(uint32_t type_bits, VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred) const;
  /// Largest heap size (bytes) reachable through a memory type of `type_bits` with `required` flags.
  VkDeviceSize heap_size_for(uint32_t type_bits, VkMemoryPropertyFlags required) const;

 private:
  void load_pipeline_cache();
  void save_pipeline_cache() noexcept;

  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  DeviceInfo info_;
  VkPhysicalDeviceMemoryProperties memory_{};
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkPipelineCache pipeline_cache_ = VK_NULL_HANDLE;
  std::string pipeline_cache_path_;
};

}  // namespace gemmtune::vk
