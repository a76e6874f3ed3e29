// Vulkan resources with one owner each: buffers, compute pipelines (with their descriptor set), and a submitter
// (command pool, command buffer, fence, timestamp queries).
#pragma once

#include <volk.h>

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "vk/device.hpp"

namespace gemmtune::vk {

/// Usage of the buffers kernels read and write: storage, and copies in and out (uploads, readback, fresh images).
inline constexpr VkBufferUsageFlags kStorageBufferUsage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;

class Buffer {
 public:
  /// `host_visible`: mapped, coherent memory (cached where available) for uploads and readback; otherwise
  /// device-local memory where the device has it.
  Buffer(const Device& device, VkDeviceSize size, VkBufferUsageFlags usage, bool host_visible);
  ~Buffer();
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&&) = delete;
  Buffer(const Buffer&) = delete;

  VkBuffer handle() const { return buffer_; }
  VkDeviceSize size() const { return size_; }
  void* mapped() const { return mapped_; }

 private:
  VkDevice device_ = VK_NULL_HANDLE;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceSize size_ = 0;
  void* mapped_ = nullptr;
};

struct SpecConstant {
  uint32_t id;
  uint32_t value;
};

/// One statistic the driver reports for a compiled pipeline (VK_KHR_pipeline_executable_properties), as the
/// driver names it ("Register Count", "Spill Count", ...); where a pipeline has several executables, the name is
/// prefixed with the executable's ("<executable>: <statistic>").
struct PipelineStatistic {
  std::string name;
  double value = 0.0;
};

class ComputePipeline {
 public:
  /// Builds the pipeline (through the device's pipeline cache) with `buffers.size()` storage-buffer bindings
  /// 0..n-1, bound to `buffers`, and a push-constant block of `push_bytes`.
  /// `required_subgroup_size` > 0 pins the subgroup size with full subgroups (subgroup size control). `cache`:
  /// the pipeline cache to build through, VK_NULL_HANDLE for the device's.
  ComputePipeline(const Device& device, std::span<const uint32_t> spirv, const std::vector<SpecConstant>& constants,
                  const std::vector<VkBuffer>& buffers, uint32_t push_bytes, uint32_t required_subgroup_size = 0,
                  VkPipelineCache cache = VK_NULL_HANDLE);
  ~ComputePipeline();
  ComputePipeline(const ComputePipeline&) = delete;
  ComputePipeline& operator=(const ComputePipeline&) = delete;

  /// Points bindings 0..n-1 at `buffers` (same count as at creation); only while no submission uses the set.
  void bind(const std::vector<VkBuffer>& buffers);
  /// Binds pipeline and descriptor set, pushes the constants and dispatches.
  void record_dispatch(VkCommandBuffer cmd, const void* push, uint32_t x, uint32_t y, uint32_t z) const;
  /// The driver's statistics of the compiled pipeline; empty where the device does not report them.
  const std::vector<PipelineStatistic>& statistics() const { return statistics_; }

 private:
  void release() noexcept;
  VkDevice device_ = VK_NULL_HANDLE;
  uint32_t push_bytes_ = 0;
  size_t binding_count_ = 0;
  VkShaderModule module_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  std::vector<PipelineStatistic> statistics_;
};

/// Records and submits one command buffer at a time on the device's queue, waiting with a bounded timeout.
class Submitter {
 public:
  Submitter(const Device& device, uint64_t timeout_ns);
  ~Submitter();
  Submitter(const Submitter&) = delete;
  Submitter& operator=(const Submitter&) = delete;

  using Recorder = std::function<void(VkCommandBuffer)>;
  /// Records, submits and waits. A fence wait past the timeout throws VulkanError(VK_TIMEOUT) (exit 4).
  void run(const Recorder& record);
  /// Like run(), and returns the device time of what `timed` recorded, in nanoseconds: from timestamps (masked
  /// to the valid bits, so one wrap-around is handled, scaled by timestampPeriod), or, on a queue without
  /// timestamps, the host time from submit to fence. `before` and `after` are recorded outside the timed region.
  double run_timed(const Recorder& timed, const Recorder& before = {}, const Recorder& after = {});
  bool uses_timestamps() const { return query_pool_ != VK_NULL_HANDLE; }

 private:
  void submit_and_wait();
  void release() noexcept;

  const Device& device_;
  uint64_t timeout_ns_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  VkQueryPool query_pool_ = VK_NULL_HANDLE;
};

/// Memory barrier between compute writes/transfers and later compute or transfer reads.
void record_full_barrier(VkCommandBuffer cmd);

/// Memory barrier between one dispatch's writes and the next dispatch's reads and writes, as a caller chaining
/// compute passes records it (no transfer or host stages: those cost the timed runs time a caller does not spend).
void record_compute_barrier(VkCommandBuffer cmd);

}  // namespace gemmtune::vk
