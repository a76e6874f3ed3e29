// Recording a kit's plans (gemm_rules.hpp) with Vulkan: the pipelines a pass needs and the commands of a run.
// Copied into every kit by `gemmtune export --format kit` (only the namespace renamed and the include below made
// the kit's gemm_rules.hpp); gemmtune's GPU tests record with it too (tests/gpu/test_kit_plan.cpp). The caller owns
// every Vulkan object: it creates and destroys the pipelines through these functions, passes its own buffers and
// command buffer, and fills `VulkanFunctions` from its loader (volk, or its own dispatch table). Include the
// Vulkan header (or volk.h) before this file.
#pragma once

#include <cstdint>

#include "core/dispatch_rules.hpp"

namespace gemmtune::kit {

/// The Vulkan entry points the helpers call, from the caller's loader.
struct VulkanFunctions {
  PFN_vkCreateShaderModule create_shader_module = nullptr;
  PFN_vkDestroyShaderModule destroy_shader_module = nullptr;
  PFN_vkCreateDescriptorSetLayout create_descriptor_set_layout = nullptr;
  PFN_vkDestroyDescriptorSetLayout destroy_descriptor_set_layout = nullptr;
  PFN_vkCreatePipelineLayout create_pipeline_layout = nullptr;
  PFN_vkDestroyPipelineLayout destroy_pipeline_layout = nullptr;
  PFN_vkCreateComputePipelines create_compute_pipelines = nullptr;
  PFN_vkDestroyPipeline destroy_pipeline = nullptr;
  PFN_vkCreateDescriptorPool create_descriptor_pool = nullptr;
  PFN_vkDestroyDescriptorPool destroy_descriptor_pool = nullptr;
  PFN_vkAllocateDescriptorSets allocate_descriptor_sets = nullptr;
  PFN_vkUpdateDescriptorSets update_descriptor_sets = nullptr;
  PFN_vkCmdBindPipeline cmd_bind_pipeline = nullptr;
  PFN_vkCmdBindDescriptorSets cmd_bind_descriptor_sets = nullptr;
  PFN_vkCmdPushConstants cmd_push_constants = nullptr;
  PFN_vkCmdDispatch cmd_dispatch = nullptr;
  PFN_vkCmdPipelineBarrier cmd_pipeline_barrier = nullptr;
};

/// The SPIR-V of a module: `words` 32-bit words.
struct Module {
  const uint32_t* code = nullptr;
  size_t words = 0;
};

/// What the device lets a pipeline pin: subgroup size control with full subgroups, where the device has more than
/// one subgroup size (VK_EXT_subgroup_size_control / Vulkan 1.3, enabled on the caller's device).
struct SubgroupControl {
  bool enabled = false;
  uint32_t min_size = 0, max_size = 0;
};

/// One pass's pipeline and the objects it is made of; a descriptor set with the six storage buffers of a run.
struct PassPipeline {
  VkShaderModule module = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;
};

inline constexpr uint32_t kBindings = 6;  ///< A, B, C, bias, scratch planes, arrival counters

inline void destroy_pass_pipeline(VkDevice device, const VulkanFunctions& vk, PassPipeline& p) {
  if (p.pool) vk.destroy_descriptor_pool(device, p.pool, nullptr);
  if (p.pipeline) vk.destroy_pipeline(device, p.pipeline, nullptr);
  if (p.layout) vk.destroy_pipeline_layout(device, p.layout, nullptr);
  if (p.set_layout) vk.destroy_descriptor_set_layout(device, p.set_layout, nullptr);
  if (p.module) vk.destroy_shader_module(device, p.module, nullptr);
  p = PassPipeline{};
}

/// Builds the pipeline of `pass` from `module` (the kit's module of that index) as gemmtune does: its
/// specialization constants, an 80-byte push-constant block, six storage-buffer bindings, the required subgroup
/// size pinned with full subgroups where `subgroups` allows. On failure everything made is destroyed and the
/// VkResult returned.
inline VkResult create_pass_pipeline(VkDevice device, const VulkanFunctions& vk, const rules::Pass& pass, Module module,
                                     SubgroupControl subgroups, PassPipeline& out) {
  out = PassPipeline{};
  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = module.words * sizeof(uint32_t);
  module_info.pCode = module.code;
  VkResult r = vk.create_shader_module(device, &module_info, nullptr, &out.module);
  VkDescriptorSetLayoutBinding bindings[kBindings];
  for (uint32_t i = 0; i < kBindings; ++i)
    bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.bindingCount = kBindings;
  set_info.pBindings = bindings;
  if (r == VK_SUCCESS) r = vk.create_descriptor_set_layout(device, &set_info, nullptr, &out.set_layout);
  const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(rules::GemmPush)};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &out.set_layout;
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &range;
  if (r == VK_SUCCESS) r = vk.create_pipeline_layout(device, &layout_info, nullptr, &out.layout);
  VkSpecializationMapEntry entries[rules::kMaxPassConstants];
  uint32_t values[rules::kMaxPassConstants];
  for (uint32_t i = 0; i < pass.constant_count; ++i) {
    entries[i] = {pass.constants[i].id, uint32_t(i * sizeof(uint32_t)), sizeof(uint32_t)};
    values[i] = pass.constants[i].value;
  }
  const VkSpecializationInfo spec{pass.constant_count, entries, pass.constant_count * sizeof(uint32_t), values};
  VkComputePipelineCreateInfo pipe_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipe_info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  pipe_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipe_info.stage.module = out.module;
  pipe_info.stage.pName = "main";
  pipe_info.stage.pSpecializationInfo = &spec;
  pipe_info.layout = out.layout;
  // The rule gemmtune's runner applies (rules::subgroup_size_to_pin).
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo subgroup{
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
  subgroup.requiredSubgroupSize = rules::subgroup_size_to_pin(pass.required_subgroup_size, subgroups.enabled,
                                                              subgroups.min_size, subgroups.max_size);
  if (subgroup.requiredSubgroupSize > 0) {
    pipe_info.stage.pNext = &subgroup;
    pipe_info.stage.flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
  }
  if (r == VK_SUCCESS) r = vk.create_compute_pipelines(device, VK_NULL_HANDLE, 1, &pipe_info, nullptr, &out.pipeline);
  const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kBindings};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &size;
  if (r == VK_SUCCESS) r = vk.create_descriptor_pool(device, &pool_info, nullptr, &out.pool);
  VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc.descriptorPool = out.pool;
  alloc.descriptorSetCount = 1;
  alloc.pSetLayouts = &out.set_layout;
  if (r == VK_SUCCESS) r = vk.allocate_descriptor_sets(device, &alloc, &out.set);
  if (r != VK_SUCCESS) destroy_pass_pipeline(device, vk, out);
  return r;
}

/// The caller's buffers of a run, bindings 0-5. Bias, scratch and arrivals may be any buffer where the plan has
/// none (plan.scratch_floats, plan.arrival_counters zero); the arrival counters must hold zeros before the first
/// run (every run leaves them zero).
struct RunBuffers {
  VkBuffer a = VK_NULL_HANDLE, b = VK_NULL_HANDLE, c = VK_NULL_HANDLE, bias = VK_NULL_HANDLE;
  VkBuffer scratch = VK_NULL_HANDLE, arrivals = VK_NULL_HANDLE;
};

/// Points the descriptor set of a pass's pipeline at `buffers`; only while no submitted work uses the set.
inline void bind_buffers(VkDevice device, const VulkanFunctions& vk, const PassPipeline& p, const RunBuffers& buffers) {
  const VkBuffer all[kBindings] = {buffers.a, buffers.b, buffers.c, buffers.bias, buffers.scratch, buffers.arrivals};
  VkDescriptorBufferInfo infos[kBindings];
  VkWriteDescriptorSet writes[kBindings];
  for (uint32_t i = 0; i < kBindings; ++i) {
    infos[i] = {all[i], 0, VK_WHOLE_SIZE};
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[i].dstSet = p.set;
    writes[i].dstBinding = i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[i].pBufferInfo = &infos[i];
  }
  vk.update_descriptor_sets(device, kBindings, writes, 0, nullptr);
}

/// Shader writes before later shader reads and writes (between the passes of a run, and between runs that share C).
inline void record_compute_barrier(VkCommandBuffer cmd, const VulkanFunctions& vk) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  vk.cmd_pipeline_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                          &barrier, 0, nullptr, 0, nullptr);
}

/// Records one run of `plan`: each pass (pipelines[i] made for plan.passes[i], buffers bound) as one or more
/// dispatches within `max_workgroups` (maxComputeWorkGroupCount) with its own push constants, a barrier before each
/// pass but the first.
inline void record_plan(VkCommandBuffer cmd, const VulkanFunctions& vk, const rules::Plan& plan,
                        const PassPipeline* pipelines, const uint32_t max_workgroups[3]) {
  for (uint32_t i = 0; i < plan.pass_count; ++i) {
    if (i > 0) record_compute_barrier(cmd, vk);
    const PassPipeline& p = pipelines[i];
    vk.cmd_bind_pipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
    vk.cmd_bind_descriptor_sets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &p.set, 0, nullptr);
    rules::GemmPush push = plan.passes[i].push;
    rules::for_each_dispatch(
        plan.passes[i].grid, {max_workgroups[0], max_workgroups[1], max_workgroups[2]},
        [&](uint32_t x, uint32_t y, uint32_t z, uint32_t count_x, uint32_t count_y, uint32_t count_z) {
          push.base_x = x, push.base_y = y, push.base_z = z;
          vk.cmd_push_constants(cmd, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
          vk.cmd_dispatch(cmd, count_x, count_y, count_z);
        });
  }
}

}  // namespace gemmtune::kit
