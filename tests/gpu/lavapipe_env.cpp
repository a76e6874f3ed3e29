#include "gpu/lavapipe_env.hpp"

#include <spdlog/spdlog.h>

#include <cstdlib>
#include <memory>
#include <string>

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

}  // namespace gemmtune::test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  spdlog::set_level(spdlog::level::warn);
  ::testing::AddGlobalTestEnvironment(new gemmtune::test::VulkanEnvironment);
  return RUN_ALL_TESTS();
}
