// Test-only variants, listed only with GEMMTUNE_TEST_KERNELS naming them (comma-separated):
// - hang (kernels/test_hang.comp): one config whose dispatch would take days, so the tests can show that
//   --isolate records it as timed_out and the sweep completes;
// - lose: one config that reports a lost device when it is built (fault injection), so the tests can show
//   that the device is recreated, the config recorded as device_lost, and the sweep completes.
#include "kernels/registry.hpp"
#include "kernels/spirv.hpp"
#include "vk/check.hpp"

namespace gemmtune {

namespace {
KernelFamily make_test_variant(const std::string& name) {
  KernelFamily f;
  f.name = name;
  f.params = {{"x", 1, {1}}};
  f.constraints = device_limit_constraints();
  f.workgroup_size_constant_id = 0;
  f.workgroup_size = [](const Config&) { return 1u; };
  f.shared_bytes = [](const Config&, DType) { return uint64_t(0); };
  if (name == "lose") {
    f.grid = [](const Config&, const GemmProblem&) -> std::array<uint64_t, 3> {
      throw vk::VulkanError("vkQueueSubmit (injected by the test variant lose)", VK_ERROR_DEVICE_LOST);
    };
  } else {
    f.grid = [](const Config&, const GemmProblem&) { return std::array<uint64_t, 3>{65535, 65535, 64}; };
  }
  f.spirv = [](DType) { return test_hang_spirv(); };
  return f;
}
}  // namespace

const KernelFamily& test_hang_family() {
  static const KernelFamily family = make_test_variant("hang");
  return family;
}

const KernelFamily& test_lose_family() {
  static const KernelFamily family = make_test_variant("lose");
  return family;
}

}  // namespace gemmtune
