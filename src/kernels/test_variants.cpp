// Test-only variants, listed only with GEMMTUNE_TEST_KERNELS naming them (comma-separated):
// - hang (kernels/test_hang.comp): one config whose dispatch would take days, so the tests can show that
//   --isolate records it as timed_out and the sweep completes;
// - lose: one config that reports a lost device when it is built (fault injection), so the tests can show
//   that the device is recreated, the config recorded as device_lost, and the sweep completes;
// - fault_<name>: a real family whose module carries one planted mistake (kernels/CMakeLists.txt), so the tests
//   can show that verification refuses every config that takes the faulty path.
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
    f.grid_override = [](const Config&, const GemmProblem&) -> std::array<uint64_t, 3> {
      throw vk::VulkanError("vkQueueSubmit (injected by the test variant lose)", VK_ERROR_DEVICE_LOST);
    };
  } else {
    f.grid_override = [](const Config&, const GemmProblem&) { return std::array<uint64_t, 3>{65535, 65535, 64}; };
  }
  f.spirv = [](DType) { return spirv_module("test_hang_f32"); };
  return f;
}
}  // namespace

const std::vector<PlantedFault>& planted_faults() {
  auto make = [](const std::string& fault, const KernelFamily& base, const std::string& what, bool order_only = false) {
    auto family = std::make_shared<KernelFamily>(base);
    family->name = "fault_" + fault;
    family->spirv = spirv_modules_named(family->name);
    family->alternative_spirv = nullptr;
    family->alternative_applies = nullptr;
    return PlantedFault{family, &base, what, order_only};
  };
  static const std::vector<PlantedFault> faults = {
      make("unroll_tail", family_named("fewrows"), "few-rows drops the k terms after its last whole unrolled trip"),
      make("last_slice", family_named("fewrows"), "few-rows adds all but the last slice's sums"),
      make("dropped_plane", family_named("fewrows"), "few-rows' one-pass split-k adds all but the last range's plane"),
      make("reversed_planes", family_named("fewrows"), "few-rows' one-pass split-k adds the ranges' planes last first",
           true),
      make("rowdot_head", family_named("rowdot"),
           "row-dot skips the elements before a shifted row's first 16-byte boundary"),
      make("edge_column", family_named("tiled"), "tiled leaves C's last column unwritten"),
      make("beta_reads_c", family_named("tiled"), "tiled reads C when beta = 0 (C may hold anything then)"),
      make("bias_shift", family_named("tiled"), "tiled adds the bias of the next column"),
      make("gelu_constant", family_named("tiled"), "tiled's gelu-tanh uses sqrt(2/pi) cut to 0.7978"),
      make("gelu_erf_constant", family_named("tiled"), "tiled's gelu-erf uses 1/sqrt(2) cut to 0.7071"),
      make("zero_point", family_named("fewrows"),
           "the 8-bit few-rows kernel adds A's zero point instead of subtracting it")};
  return faults;
}

const KernelFamily& test_hang_family() {
  static const KernelFamily family = make_test_variant("hang");
  return family;
}

const KernelFamily& test_lose_family() {
  static const KernelFamily family = make_test_variant("lose");
  return family;
}

}  // namespace gemmtune
