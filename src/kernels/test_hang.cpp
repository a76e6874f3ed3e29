// The test-only variant `hang` (kernels/test_hang.comp): one config whose dispatch would take days, so the tests
// can show that --isolate records it as timed_out and the sweep completes. Only with GEMMTUNE_TEST_KERNELS=hang.
#include "kernels/registry.hpp"
#include "kernels/spirv.hpp"

namespace gemmtune {

namespace {
KernelFamily make_hang() {
  KernelFamily f;
  f.name = "hang";
  f.params = {{"x", 1, {1}}};
  f.constraints = device_limit_constraints();
  f.workgroup_size_constant_id = 0;
  f.workgroup_size = [](const Config&) { return 1u; };
  f.shared_bytes = [](const Config&) { return uint64_t(0); };
  f.grid = [](const Config&, const GemmProblem&) { return std::array<uint64_t, 3>{65535, 65535, 64}; };
  f.spirv = [](DType) { return test_hang_spirv(); };
  return f;
}
}  // namespace

const KernelFamily& test_hang_family() {
  static const KernelFamily family = make_hang();
  return family;
}

}  // namespace gemmtune
