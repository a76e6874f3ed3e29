// What a kit dispatches is what gemmtune's runner ran: rules::plan recorded by the kit's Vulkan helper
// (src/kit/gemm_kit_vulkan.hpp, copied into every kit), on gemmtune's own operands, gives C bit for bit as the runner
// does. Families with each kind of pass: tiled and splitk (its reduce pass) in deterministic mode, warptile split in
// one pass and through the reduce pass, fewrows with its aligned-unit columns and a one-pass split, rowdot, tiled with
// the decoding pre-pass of weights in blocks; with beta, bias and an activation, offsets and batches.
#include <cstring>

#include "gpu/lavapipe_env.hpp"
#include "kernels/registry.hpp"
#include "kernels/spirv.hpp"
#include "run/gemm_runner.hpp"
#include "verify/operands.hpp"
#include "verify/reference.hpp"

// After the Vulkan declarations (volk, through vk/device.hpp), as a kit's user includes it.
#include "kit/gemm_kit_vulkan.hpp"

namespace gemmtune::test {

namespace {

kit::VulkanFunctions volk_functions() {
  return {vkCreateShaderModule,   vkDestroyShaderModule,   vkCreateDescriptorSetLayout, vkDestroyDescriptorSetLayout,
          vkCreatePipelineLayout, vkDestroyPipelineLayout, vkCreateComputePipelines,    vkDestroyPipeline,
          vkCreateDescriptorPool, vkDestroyDescriptorPool, vkAllocateDescriptorSets,    vkUpdateDescriptorSets,
          vkCmdBindPipeline,      vkCmdBindDescriptorSets, vkCmdPushConstants,          vkCmdDispatch,
          vkCmdPipelineBarrier};
}

constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

/// C as the kit's helper leaves it after one run of `config` on the operands gemmtune's runner makes for `p`.
std::vector<float> kit_result(const vk::Device& device, const KernelFamily& family, const Config& config,
                              const GemmProblem& p) {
  const RunOptions options;
  const HostOperands ops = make_operands(p, options.seed, options.guard);
  const rules::Plan plan = rules::plan(kernel_config(family, config, p.dtype), operation_of(p, ops.layout));
  const std::span<const uint32_t> modules[3] = {family.main_module(config, p.dtype, device.info()),
                                                splitk_reduce_spirv(p.dtype),
                                                prepass_spirv(family.prepass_for(p.dtype), p.dtype)};
  auto buffer = [&](const void* data, size_t bytes) {
    vk::Buffer b(device, std::max<size_t>(bytes, 16), kStorage, true);
    std::memset(b.mapped(), 0, size_t(b.size()));
    if (data) std::memcpy(b.mapped(), data, bytes);
    return b;
  };
  vk::Buffer a = buffer(ops.a_device.data(), ops.a_device.size()), b = buffer(ops.b_device.data(), ops.b_device.size());
  vk::Buffer c = buffer(ops.c0.data(), ops.c0.size() * 4), bias = buffer(ops.bias.data(), ops.bias.size() * 4);
  vk::Buffer scratch = buffer(nullptr, plan.scratch_floats * 4), arrivals = buffer(nullptr, plan.arrival_counters * 4);
  const kit::VulkanFunctions fns = volk_functions();
  const vk::DeviceInfo& info = device.info();
  const kit::SubgroupControl subgroups{info.matrix.subgroup_size_control && info.matrix.full_subgroups,
                                       info.matrix.min_subgroup_size, info.matrix.max_subgroup_size};
  kit::PassPipeline pipelines[rules::kMaxPasses];
  for (uint32_t i = 0; i < plan.pass_count; ++i) {
    const std::span<const uint32_t> m = modules[plan.passes[i].module];
    EXPECT_EQ(
        kit::create_pass_pipeline(device.handle(), fns, plan.passes[i], {m.data(), m.size()}, subgroups, pipelines[i]),
        VK_SUCCESS);
    kit::bind_buffers(device.handle(), fns, pipelines[i],
                      {a.handle(), b.handle(), c.handle(), bias.handle(), scratch.handle(), arrivals.handle()});
  }
  vk::Submitter submitter(device, 60'000'000'000ull);
  submitter.run(
      [&](VkCommandBuffer cmd) { kit::record_plan(cmd, fns, plan, pipelines, info.max_workgroup_count.data()); });
  for (kit::PassPipeline& pipeline : pipelines) kit::destroy_pass_pipeline(device.handle(), fns, pipeline);
  std::vector<float> image(ops.c0.size());
  std::memcpy(image.data(), c.mapped(), image.size() * 4);
  return gather_result(p, ops, image).values;
}

GemmProblem kit_problem(Shape shape, DType dtype, Layout layout, bool epilogue, Mode mode) {
  GemmProblem p;
  p.shape = shape, p.dtype = dtype, p.layout = layout, p.mode = mode;
  p.a.offset = 8;  // aligned rows, off the buffer's start
  if (epilogue) {
    p.beta = 0.5f;
    p.epilogue.bias = true;
    p.epilogue.activation = Activation::relu;
  }
  return p;
}

class KitPlan : public GpuTest {};

}  // namespace

TEST_F(KitPlan, TheKitsRecordingOfAPlanGivesTheRunnersBits) {
  const Layout nn{false, false}, nt{false, true}, tn{true, false};
  struct Case {
    const KernelFamily* family;
    Config config;
    GemmProblem problem;
  };
  const Mode det = Mode::deterministic, fast = Mode::fast;
  // Split in 3 ranges, finished in one pass (0) or by the reduce pass (1; that one also reads fragments a k row ahead).
  auto warptile = [](uint32_t reduce) {
    return Config{{{"bm", 64},
                   {"bn", 64},
                   {"bk", 16},
                   {"wm", 32},
                   {"wn", 64},
                   {"tm", 8},
                   {"tn", 8},
                   {"splits", 3},
                   {"reduce", reduce},
                   {"ahead", reduce}}};
  };
  const Case cases[] = {
      {&family_named("tiled"), Config{{{"bm", 32}, {"bn", 64}, {"bk", 16}, {"tm", 4}, {"tn", 4}}},
       kit_problem({40, 70, 300, 2}, DType::f32, tn, true, det)},
      {&family_named("splitk"), Config{{{"bm", 32}, {"bn", 32}, {"bk", 16}, {"tm", 4}, {"tn", 2}, {"splits", 3}}},
       kit_problem({33, 45, 1000, 1}, DType::f16, nt, true, det)},
      {find_family("warptile"), warptile(0), kit_problem({70, 96, 1000, 1}, DType::f32, nn, true, fast)},
      {find_family("warptile"), warptile(1), kit_problem({70, 96, 1000, 1}, DType::f32, nt, false, fast)},
      {&family_named("fewrows"), Config{{{"cols", 8}, {"slices", 8}, {"unroll", 4}, {"vec", 4}, {"splits", 4}}},
       kit_problem({3, 77, 1000, 1}, DType::f32, nn, true, det)},
      {&family_named("rowdot"), Config{{{"wg", 64}, {"rows", 2}, {"unroll", 1}, {"splits", 2}}},
       kit_problem({2, 50, 600, 1}, DType::bf16, nt, false, det)},
      // Weights in blocks decoded once by the pre-pass, a batch of two.
      {&family_named("tiled"), Config{{{"bm", 32}, {"bn", 32}, {"bk", 16}, {"tm", 4}, {"tn", 4}, {"prepass", 1}}},
       kit_problem({40, 70, 320, 2}, DType::f16_q4_0, nt, true, fast)}};
  for (const Case& cs : cases) {
    ASSERT_NE(cs.family, nullptr);
    const std::string name = cs.family->config_name(cs.config, cs.problem.dtype) + " " + cs.problem.layout.name();
    GemmRunner runner(device(), cs.problem, RunOptions{});
    const Measurement m = runner.verify(*cs.family, cs.config);
    ASSERT_EQ(m.disposition, Disposition::passed) << name << ": " << m.detail;
    const std::vector<float> kit = kit_result(device(), *cs.family, cs.config, cs.problem);
    ASSERT_EQ(kit.size(), runner.last_result().size()) << name;
    EXPECT_EQ(0, std::memcmp(kit.data(), runner.last_result().data(), kit.size() * sizeof(float))) << name;
  }
}

}  // namespace gemmtune::test
