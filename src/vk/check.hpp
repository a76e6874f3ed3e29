// Vulkan error checking: a failed call throws a VulkanError naming the call and the VkResult.
#pragma once

#include <volk.h>

#include <string>

#include "core/error.hpp"

namespace gemmtune::vk {

const char* result_name(VkResult result);

/// Maps a VkResult to the exit code class: device lost, out of memory and timeouts are device faults;
/// a missing driver, layer, extension or feature means not supported.
ExitCode exit_code_for(VkResult result);

class VulkanError : public Error {
 public:
  VulkanError(const std::string& call, VkResult result)
      : Error(exit_code_for(result), call + " failed: " + result_name(result)), result_(result) {}
  VkResult result() const { return result_; }

 private:
  VkResult result_;
};

inline void check(VkResult result, const char* call) {
  if (result != VK_SUCCESS) throw VulkanError(call, result);
}

}  // namespace gemmtune::vk
