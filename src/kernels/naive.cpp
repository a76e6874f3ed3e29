// The naive family (kernels/gemm_naive.comp): the baseline of the seed chapters, one invocation per element of C.
// Not swept by default; every tune runs its first config once and records the winner's speed-up over it.
#include "kernels/registry.hpp"

namespace gemmtune {

namespace {
KernelFamily make_naive() {
  KernelFamily f;
  f.name = "naive";
  f.color = "#9c755f";
  f.params = {{"wg", kNoSpecConstant, {64, 128, 256}}};
  f.constraints = device_limit_constraints();
  f.workgroup_size_constant_id = 0;
  f.workgroup_size = [](const Config& c) { return c.get("wg"); };
  f.shared_bytes = [](const Config&, DType) { return uint64_t{0}; };
  f.dispatch_rule = [](const Config& c, DType) { return tile_rule(1, c.get("wg"), 1); };  // a row of C a workgroup
  f.summation_order = [](const Config&, const GemmProblem& p, const vk::DeviceInfo&) {
    return ordered_sums(SummationOrder::Kind::chain, 1, 1, p);
  };
  return f;
}
}  // namespace

GEMMTUNE_DESCRIBE_FAMILY(naive, make_naive)

}  // namespace gemmtune
