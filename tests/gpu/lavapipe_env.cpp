#include "gpu/lavapipe_env.hpp"

#include <spdlog/spdlog.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "vk/resources.hpp"

namespace gemmtune::test {

namespace {
std::unique_ptr<vk::Instance> g_instance;
std::unique_ptr<vk::Device> g_device;

class VulkanEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    // The tests demand the validation layer: a missing layer fails them rather than skipping checks. The one
    // exception is a machine without the layer where the tests are run by hand (the H200 machine for the
    // matrix-unit variants), which says so with GEMMTUNE_TEST_WITHOUT_VALIDATION=1; CI never sets it.
    const char* without = std::getenv("GEMMTUNE_TEST_WITHOUT_VALIDATION");
    g_instance = std::make_unique<vk::Instance>(!(without && std::string(without) == "1"));
    g_device = std::make_unique<vk::Device>(*g_instance, g_instance->select(""));
  }
  void TearDown() override {
    g_device.reset();
    g_instance.reset();
  }
};
}  // namespace

vk::Instance& instance() { return *g_instance; }
vk::Device& device() { return *g_device; }

std::vector<Candidate> candidates_with(const KernelFamily& family, const GemmProblem& problem, const std::string& param,
                                       uint32_t value) {
  std::vector<Candidate> out;
  for (Candidate& c : build_search_space({&family}, problem, device().info()).candidates)
    if (c.config.get(param) == value) out.push_back(std::move(c));
  return out;
}

std::vector<uint16_t> run_prepass(const rules::Plan& plan, std::span<const uint32_t> module,
                                  std::span<const std::byte> a, std::span<const std::byte> b) {
  const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  vk::Buffer ab(device(), a.size(), storage, true), bb(device(), b.size(), storage, true);
  vk::Buffer scratch(device(), plan.scratch_floats * 4, storage, true), other(device(), 16, storage, true);
  std::memcpy(ab.mapped(), a.data(), a.size());
  std::memcpy(bb.mapped(), b.data(), b.size());
  std::memset(scratch.mapped(), 0xAB, plan.scratch_floats * 4);
  const rules::Pass& pass = plan.passes[0];
  std::vector<vk::SpecConstant> constants;
  for (uint32_t i = 0; i < pass.constant_count; ++i)
    constants.push_back({pass.constants[i].id, pass.constants[i].value});
  vk::ComputePipeline prepass(
      device(), module, constants,
      {ab.handle(), bb.handle(), other.handle(), other.handle(), scratch.handle(), other.handle()},
      uint32_t(sizeof(rules::GemmPush)));
  vk::Submitter submitter(device(), 10'000'000'000ull);
  submitter.run([&](VkCommandBuffer cmd) {
    prepass.record_dispatch(cmd, &pass.push, uint32_t(pass.grid[0]), uint32_t(pass.grid[1]), uint32_t(pass.grid[2]));
  });
  std::vector<uint16_t> out(plan.scratch_floats * 2);
  std::memcpy(out.data(), scratch.mapped(), out.size() * 2);
  return out;
}

}  // namespace gemmtune::test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  spdlog::set_level(spdlog::level::warn);
  ::testing::AddGlobalTestEnvironment(new gemmtune::test::VulkanEnvironment);
  return RUN_ALL_TESTS();
}
