// The logical device: one compute queue, memory-type lookup and a persistent pipeline cache.
#pragma once

#include <volk.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_set>

#include "vk/device_info.hpp"
#include "vk/instance.hpp"

namespace gemmtune::vk {

/// Folder for the persistent pipeline cache: $GEMMTUNE_CACHE_DIR, else $XDG_CACHE_HOME/gemmtune, else
/// $HOME/.cache/gemmtune.
std::string cache_folder();
/// GEMMTUNE_NO_PIPELINE_CACHE set (not "0"): devices neither read nor write the persistent pipeline cache
/// (--no-pipeline-cache; build workers, whose builds reach the file through their parent).
bool pipeline_cache_bypassed();

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
  /// A new pipeline cache (the caller destroys it) holding `data` where the driver accepts it, else empty.
  VkPipelineCache new_pipeline_cache(const std::string& data) const;
  /// Merges another cache's data (vkGetPipelineCacheData of this device's kind) into pipeline_cache(): the
  /// caller makes sure no pipeline is being built through it meanwhile.
  void merge_into_pipeline_cache(const std::string& data) const;
  /// Pipelines created through pipeline_cache() in this process, by a key of what they are built from (the caller's:
  /// module, constants, subgroup size): creating one again is a cache hit, not worth a build worker's time, nor a
  /// wait for one. Thread-safe.
  bool pipeline_built(uint64_t recipe_key) const;
  void note_pipeline_built(uint64_t recipe_key) const;

  /// A memory type allowed by `type_bits` with all `required` flags, preferring one that also has `preferred`.
  /// Throws (exit 3) when none exists.
  uint32_t memory_type(uint32_t type_bits, VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred) const;
  /// Largest heap size (bytes) reachable through a memory type of `type_bits` with `required` flags.
  VkDeviceSize heap_size_for(uint32_t type_bits, VkMemoryPropertyFlags required) const;

 private:
  void load_pipeline_cache();
  /// Saved framed (core/checked_blob.hpp) under a lock, merged with what other runs saved meanwhile, and only
  /// where this run built something the file did not hold.
  void save_pipeline_cache() noexcept;
  std::string pipeline_cache_data() const;

  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  DeviceInfo info_;
  VkPhysicalDeviceMemoryProperties memory_{};
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkPipelineCache pipeline_cache_ = VK_NULL_HANDLE;
  std::string pipeline_cache_path_;
  size_t loaded_cache_bytes_ = 0;    ///< the cache's data size as loaded
  bool rewrite_cache_file_ = false;  ///< the file was damaged: saved whatever was built
  mutable std::mutex built_mutex_;
  mutable std::unordered_set<uint64_t> built_;  ///< pipeline_built's keys
};

}  // namespace gemmtune::vk
