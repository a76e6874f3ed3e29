#include "vk/resources.hpp"

#include <chrono>
#include <cmath>

#include "vk/check.hpp"

namespace gemmtune::vk {

// ---------------------------------------------------------------------------------------------------- Buffer

Buffer::Buffer(const Device& device, VkDeviceSize size, VkBufferUsageFlags usage, bool host_visible)
    : device_(device.handle()), size_(size) {
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check(vkCreateBuffer(device_, &info, nullptr, &buffer_), "vkCreateBuffer");
  try {
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device_, buffer_, &req);
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex =
        host_visible ? device.memory_type(req.memoryTypeBits,
                                          VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                          VK_MEMORY_PROPERTY_HOST_CACHED_BIT)
                     : device.memory_type(req.memoryTypeBits, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    check(vkAllocateMemory(device_, &alloc, nullptr, &memory_), "vkAllocateMemory");
    check(vkBindBufferMemory(device_, buffer_, memory_, 0), "vkBindBufferMemory");
    if (host_visible) check(vkMapMemory(device_, memory_, 0, VK_WHOLE_SIZE, 0, &mapped_), "vkMapMemory");
  } catch (...) {
    if (memory_ != VK_NULL_HANDLE) vkFreeMemory(device_, memory_, nullptr);
    vkDestroyBuffer(device_, buffer_, nullptr);
    throw;
  }
}

Buffer::Buffer(Buffer&& other) noexcept
    : device_(other.device_),
      buffer_(other.buffer_),
      memory_(other.memory_),
      size_(other.size_),
      mapped_(other.mapped_) {
  other.buffer_ = VK_NULL_HANDLE;
  other.memory_ = VK_NULL_HANDLE;
  other.mapped_ = nullptr;
}

Buffer::~Buffer() {
  if (buffer_ != VK_NULL_HANDLE) vkDestroyBuffer(device_, buffer_, nullptr);
  if (memory_ != VK_NULL_HANDLE) vkFreeMemory(device_, memory_, nullptr);  // unmaps implicitly
}

// ------------------------------------------------------------------------------------------- ComputePipeline

namespace {
/// The driver's statistics of every executable of `pipeline` (built with CAPTURE_STATISTICS). A statistic the
/// driver cannot report is left out: these figures explain a config's speed, they never decide anything.
std::vector<PipelineStatistic> read_statistics(VkDevice device, VkPipeline pipeline) {
  std::vector<PipelineStatistic> out;
  VkPipelineInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
  info.pipeline = pipeline;
  uint32_t executables = 0;
  if (vkGetPipelineExecutablePropertiesKHR(device, &info, &executables, nullptr) != VK_SUCCESS) return out;
  std::vector<VkPipelineExecutablePropertiesKHR> properties(executables,
                                                            {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
  if (vkGetPipelineExecutablePropertiesKHR(device, &info, &executables, properties.data()) != VK_SUCCESS) return out;
  for (uint32_t e = 0; e < executables; ++e) {
    VkPipelineExecutableInfoKHR which{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
    which.pipeline = pipeline;
    which.executableIndex = e;
    uint32_t count = 0;
    if (vkGetPipelineExecutableStatisticsKHR(device, &which, &count, nullptr) != VK_SUCCESS) continue;
    std::vector<VkPipelineExecutableStatisticKHR> stats(count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    if (vkGetPipelineExecutableStatisticsKHR(device, &which, &count, stats.data()) != VK_SUCCESS) continue;
    const std::string prefix = executables > 1 ? std::string(properties[e].name) + ": " : "";
    for (uint32_t i = 0; i < count; ++i) {
      const VkPipelineExecutableStatisticKHR& s = stats[i];
      double value = 0.0;
      switch (s.format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
          value = s.value.b32 ? 1.0 : 0.0;
          break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
          value = double(s.value.i64);
          break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
          value = double(s.value.u64);
          break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR:
          value = s.value.f64;
          break;
        default:
          continue;
      }
      if (std::isfinite(value)) out.push_back({prefix + s.name, value});
    }
  }
  return out;
}
}  // namespace

ComputePipeline::ComputePipeline(const Device& device, std::span<const uint32_t> spirv,
                                 const std::vector<SpecConstant>& constants, const std::vector<VkBuffer>& buffers,
                                 uint32_t push_bytes, uint32_t required_subgroup_size, VkPipelineCache cache)
    : device_(device.handle()), push_bytes_(push_bytes) {
  // On any failure the destructor of a partly built object would not run: clean up here, then rethrow.
  try {
    VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    module_info.codeSize = spirv.size_bytes();
    module_info.pCode = spirv.data();
    check(vkCreateShaderModule(device_, &module_info, nullptr, &module_), "vkCreateShaderModule");

    std::vector<VkDescriptorSetLayoutBinding> bindings(buffers.size());
    for (uint32_t i = 0; i < bindings.size(); ++i) {
      bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    }
    VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    set_info.bindingCount = uint32_t(bindings.size());
    set_info.pBindings = bindings.data();
    check(vkCreateDescriptorSetLayout(device_, &set_info, nullptr, &set_layout_), "vkCreateDescriptorSetLayout");

    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
    VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &set_layout_;
    layout_info.pushConstantRangeCount = push_bytes ? 1 : 0;
    layout_info.pPushConstantRanges = &range;
    check(vkCreatePipelineLayout(device_, &layout_info, nullptr, &layout_), "vkCreatePipelineLayout");

    std::vector<VkSpecializationMapEntry> entries;
    std::vector<uint32_t> values;
    for (const SpecConstant& c : constants) {
      entries.push_back({c.id, uint32_t(values.size() * sizeof(uint32_t)), sizeof(uint32_t)});
      values.push_back(c.value);
    }
    VkSpecializationInfo spec{uint32_t(entries.size()), entries.data(), values.size() * sizeof(uint32_t),
                              values.data()};
    VkComputePipelineCreateInfo pipe_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    pipe_info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    pipe_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pipe_info.stage.module = module_;
    pipe_info.stage.pName = "main";
    pipe_info.stage.pSpecializationInfo = &spec;
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo subgroup{
        VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
    if (required_subgroup_size > 0) {
      subgroup.requiredSubgroupSize = required_subgroup_size;
      pipe_info.stage.pNext = &subgroup;
      pipe_info.stage.flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
    }
    pipe_info.layout = layout_;
    if (device.info().pipeline_statistics) pipe_info.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    check(vkCreateComputePipelines(device_, cache != VK_NULL_HANDLE ? cache : device.pipeline_cache(), 1, &pipe_info,
                                   nullptr, &pipeline_),
          "vkCreateComputePipelines");
    if (device.info().pipeline_statistics) statistics_ = read_statistics(device_, pipeline_);

    VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, uint32_t(buffers.size())};
    VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pool_info.maxSets = 1;
    pool_info.poolSizeCount = 1;
    pool_info.pPoolSizes = &pool_size;
    check(vkCreateDescriptorPool(device_, &pool_info, nullptr, &pool_), "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = pool_;
    alloc.descriptorSetCount = 1;
    alloc.pSetLayouts = &set_layout_;
    check(vkAllocateDescriptorSets(device_, &alloc, &set_), "vkAllocateDescriptorSets");

    binding_count_ = buffers.size();
    bind(buffers);
  } catch (...) {
    release();
    throw;
  }
}

ComputePipeline::~ComputePipeline() { release(); }

void ComputePipeline::release() noexcept {
  if (pool_ != VK_NULL_HANDLE) vkDestroyDescriptorPool(device_, pool_, nullptr);  // frees set_
  if (pipeline_ != VK_NULL_HANDLE) vkDestroyPipeline(device_, pipeline_, nullptr);
  if (layout_ != VK_NULL_HANDLE) vkDestroyPipelineLayout(device_, layout_, nullptr);
  if (set_layout_ != VK_NULL_HANDLE) vkDestroyDescriptorSetLayout(device_, set_layout_, nullptr);
  if (module_ != VK_NULL_HANDLE) vkDestroyShaderModule(device_, module_, nullptr);
  pool_ = VK_NULL_HANDLE;
  pipeline_ = VK_NULL_HANDLE;
  layout_ = VK_NULL_HANDLE;
  set_layout_ = VK_NULL_HANDLE;
  module_ = VK_NULL_HANDLE;
}

void ComputePipeline::bind(const std::vector<VkBuffer>& buffers) {
  std::vector<VkDescriptorBufferInfo> infos(binding_count_);
  std::vector<VkWriteDescriptorSet> writes(binding_count_);
  for (uint32_t i = 0; i < binding_count_; ++i) {
    infos[i] = VkDescriptorBufferInfo{buffers.at(i), 0, VK_WHOLE_SIZE};
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[i].dstSet = set_;
    writes[i].dstBinding = i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[i].pBufferInfo = &infos[i];
  }
  vkUpdateDescriptorSets(device_, uint32_t(writes.size()), writes.data(), 0, nullptr);
}

void ComputePipeline::record_dispatch(VkCommandBuffer cmd, const void* push, uint32_t x, uint32_t y, uint32_t z) const {
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);
  if (push_bytes_) vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes_, push);
  vkCmdDispatch(cmd, x, y, z);
}

// ------------------------------------------------------------------------------------------------- Submitter

Submitter::Submitter(const Device& device, uint64_t timeout_ns) : device_(device), timeout_ns_(timeout_ns) {
  VkDevice dev = device.handle();
  try {
    VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool_info.queueFamilyIndex = device.info().compute_queue_family;
    check(vkCreateCommandPool(dev, &pool_info, nullptr, &pool_), "vkCreateCommandPool");
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool_;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    check(vkAllocateCommandBuffers(dev, &alloc, &cmd_), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    check(vkCreateFence(dev, &fence_info, nullptr, &fence_), "vkCreateFence");
    if (device.info().timestamps()) {
      VkQueryPoolCreateInfo query_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
      query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
      query_info.queryCount = 2;
      check(vkCreateQueryPool(dev, &query_info, nullptr, &query_pool_), "vkCreateQueryPool");
    }
  } catch (...) {
    release();
    throw;
  }
}

Submitter::~Submitter() { release(); }

void Submitter::release() noexcept {
  VkDevice dev = device_.handle();
  if (query_pool_ != VK_NULL_HANDLE) vkDestroyQueryPool(dev, query_pool_, nullptr);
  if (fence_ != VK_NULL_HANDLE) vkDestroyFence(dev, fence_, nullptr);
  if (pool_ != VK_NULL_HANDLE) vkDestroyCommandPool(dev, pool_, nullptr);  // frees cmd_
  query_pool_ = VK_NULL_HANDLE;
  fence_ = VK_NULL_HANDLE;
  pool_ = VK_NULL_HANDLE;
}

void Submitter::submit_and_wait() {
  VkDevice dev = device_.handle();
  check(vkResetFences(dev, 1, &fence_), "vkResetFences");
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd_;
  check(vkQueueSubmit(device_.queue(), 1, &submit, fence_), "vkQueueSubmit");
  VkResult r = vkWaitForFences(dev, 1, &fence_, VK_TRUE, timeout_ns_);
  if (r == VK_TIMEOUT) {
    throw VulkanError("vkWaitForFences (" + std::to_string(timeout_ns_ / 1000000000ull) + " s limit)", VK_TIMEOUT);
  }
  check(r, "vkWaitForFences");
}

void Submitter::run(const Recorder& record) {
  check(vkResetCommandBuffer(cmd_, 0), "vkResetCommandBuffer");
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(cmd_, &begin), "vkBeginCommandBuffer");
  record(cmd_);
  check(vkEndCommandBuffer(cmd_), "vkEndCommandBuffer");
  submit_and_wait();
}

double Submitter::run_timed(const Recorder& timed, const Recorder& before, const Recorder& after) {
  if (query_pool_ == VK_NULL_HANDLE) {
    // Host timing covers the whole submission: the best a queue without timestamps allows.
    auto start = std::chrono::steady_clock::now();
    run([&](VkCommandBuffer cmd) {
      if (before) before(cmd);
      timed(cmd);
      if (after) after(cmd);
    });
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  }
  run([&](VkCommandBuffer cmd) {
    vkCmdResetQueryPool(cmd, query_pool_, 0, 2);
    if (before) before(cmd);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, query_pool_, 0);
    timed(cmd);
    vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, query_pool_, 1);
    if (after) after(cmd);
  });
  uint64_t ticks[2] = {0, 0};
  check(vkGetQueryPoolResults(device_.handle(), query_pool_, 0, 2, sizeof ticks, ticks, sizeof(uint64_t),
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
        "vkGetQueryPoolResults");
  const uint32_t bits = device_.info().timestamp_valid_bits;
  const uint64_t mask = bits >= 64 ? ~uint64_t{0} : ((uint64_t{1} << bits) - 1);
  const uint64_t elapsed = ((ticks[1] & mask) - (ticks[0] & mask)) & mask;  // modular: survives one wrap
  return double(elapsed) * double(device_.info().timestamp_period_ns);
}

void record_full_barrier(VkCommandBuffer cmd) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                          VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(
      cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
      &barrier, 0, nullptr, 0, nullptr);
}

void record_compute_barrier(VkCommandBuffer cmd) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier,
                       0, nullptr, 0, nullptr);
}

}  // namespace gemmtune::vk
