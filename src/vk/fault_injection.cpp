#include "vk/fault_injection.hpp"

#include <volk.h>

#include <array>
#include <atomic>
#include <cstdlib>
#include <string>

#include "core/error.hpp"

namespace gemmtune::vk {

#ifndef GEMMTUNE_FAULT_INJECTION

void install_fault_injection() {
  const char* spec = std::getenv("GEMMTUNE_FAULTS");
  if (spec != nullptr && *spec != '\0') {
    throw usage_error("GEMMTUNE_FAULTS", spec,
                      "this build has no fault injector (configure with -DGEMMTUNE_FAULT_INJECTION=ON)");
  }
}

#else

namespace {

enum Call : size_t { pipeline, allocate, submit, wait, query, call_count };
constexpr std::array<const char*, call_count> kCallNames = {"pipeline", "allocate", "submit", "wait", "query"};

struct Plan {
  std::array<uint64_t, call_count> nth{};  ///< 0: never
  std::array<VkResult, call_count> result{};
};

Plan parse_plan(const std::string& spec) {
  Plan plan;
  size_t start = 0;
  while (start <= spec.size()) {
    const size_t end = std::min(spec.find(',', start), spec.size());
    const std::string item = spec.substr(start, end - start);
    const size_t c1 = item.find(':'), c2 = item.find(':', c1 == std::string::npos ? c1 : c1 + 1);
    if (c1 == std::string::npos || c2 == std::string::npos)
      throw usage_error("GEMMTUNE_FAULTS", item, "expected CALL:N:RESULT");
    const std::string call = item.substr(0, c1), n = item.substr(c1 + 1, c2 - c1 - 1), result = item.substr(c2 + 1);
    size_t which = call_count;
    for (size_t i = 0; i < call_count; ++i) {
      if (call == kCallNames[i]) which = i;
    }
    if (which == call_count)
      throw usage_error("GEMMTUNE_FAULTS", call, "expected pipeline, allocate, submit, wait or query");
    if (n.empty() || n.size() > 9 || n.find_first_not_of("0123456789") != std::string::npos || std::stoul(n) == 0) {
      throw usage_error("GEMMTUNE_FAULTS", n, "expected a call number from 1");
    }
    plan.nth[which] = std::stoul(n);
    if (result == "VK_ERROR_DEVICE_LOST") {
      plan.result[which] = VK_ERROR_DEVICE_LOST;
    } else if (result == "VK_ERROR_OUT_OF_DEVICE_MEMORY") {
      plan.result[which] = VK_ERROR_OUT_OF_DEVICE_MEMORY;
    } else if (result == "VK_ERROR_OUT_OF_HOST_MEMORY") {
      plan.result[which] = VK_ERROR_OUT_OF_HOST_MEMORY;
    } else if (result == "VK_TIMEOUT") {
      plan.result[which] = VK_TIMEOUT;
    } else {
      throw usage_error(
          "GEMMTUNE_FAULTS", result,
          "expected VK_ERROR_DEVICE_LOST, VK_ERROR_OUT_OF_DEVICE_MEMORY, VK_ERROR_OUT_OF_HOST_MEMORY or VK_TIMEOUT");
    }
    start = end + 1;
  }
  return plan;
}

Plan g_plan;
std::array<std::atomic<uint64_t>, call_count> g_calls{};

/// The result to inject for this call of `call`, or VK_SUCCESS.
VkResult injected(Call call) {
  const uint64_t n = g_calls[call].fetch_add(1) + 1;
  return g_plan.nth[call] == n ? g_plan.result[call] : VK_SUCCESS;
}

// The real entry points, saved at each install (a recreated device loads them again).
PFN_vkCreateComputePipelines real_create_compute_pipelines;
PFN_vkAllocateMemory real_allocate_memory;
PFN_vkQueueSubmit real_queue_submit;
PFN_vkWaitForFences real_wait_for_fences;
PFN_vkGetQueryPoolResults real_get_query_pool_results;

VKAPI_ATTR VkResult VKAPI_CALL create_compute_pipelines(VkDevice device, VkPipelineCache cache, uint32_t count,
                                                        const VkComputePipelineCreateInfo* infos,
                                                        const VkAllocationCallbacks* allocator, VkPipeline* pipelines) {
  if (VkResult r = injected(pipeline); r != VK_SUCCESS) {
    for (uint32_t i = 0; i < count; ++i) pipelines[i] = VK_NULL_HANDLE;
    return r;
  }
  return real_create_compute_pipelines(device, cache, count, infos, allocator, pipelines);
}

VKAPI_ATTR VkResult VKAPI_CALL allocate_memory(VkDevice device, const VkMemoryAllocateInfo* info,
                                               const VkAllocationCallbacks* allocator, VkDeviceMemory* memory) {
  if (VkResult r = injected(allocate); r != VK_SUCCESS) {
    *memory = VK_NULL_HANDLE;
    return r;
  }
  return real_allocate_memory(device, info, allocator, memory);
}

VKAPI_ATTR VkResult VKAPI_CALL queue_submit(VkQueue queue, uint32_t count, const VkSubmitInfo* submits, VkFence fence) {
  if (VkResult r = injected(submit); r != VK_SUCCESS) return r;
  return real_queue_submit(queue, count, submits, fence);
}

VKAPI_ATTR VkResult VKAPI_CALL wait_for_fences(VkDevice device, uint32_t count, const VkFence* fences, VkBool32 all,
                                               uint64_t timeout) {
  const VkResult real = real_wait_for_fences(device, count, fences, all, timeout);
  const VkResult r = injected(wait);
  return r != VK_SUCCESS ? r : real;
}

VKAPI_ATTR VkResult VKAPI_CALL get_query_pool_results(VkDevice device, VkQueryPool pool, uint32_t first, uint32_t count,
                                                      size_t size, void* data, VkDeviceSize stride,
                                                      VkQueryResultFlags flags) {
  const VkResult real = real_get_query_pool_results(device, pool, first, count, size, data, stride, flags);
  const VkResult r = injected(query);
  return r != VK_SUCCESS ? r : real;
}

}  // namespace

void install_fault_injection() {
  static const bool planned = [] {
    const char* spec = std::getenv("GEMMTUNE_FAULTS");
    if (spec == nullptr || *spec == '\0') return false;
    g_plan = parse_plan(spec);
    return true;
  }();
  if (!planned) return;
  real_create_compute_pipelines = vkCreateComputePipelines;
  real_allocate_memory = vkAllocateMemory;
  real_queue_submit = vkQueueSubmit;
  real_wait_for_fences = vkWaitForFences;
  real_get_query_pool_results = vkGetQueryPoolResults;
  vkCreateComputePipelines = create_compute_pipelines;
  vkAllocateMemory = allocate_memory;
  vkQueueSubmit = queue_submit;
  vkWaitForFences = wait_for_fences;
  vkGetQueryPoolResults = get_query_pool_results;
}

#endif

}  // namespace gemmtune::vk
