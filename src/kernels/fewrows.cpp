// The few-rows family (kernels/gemm_fewrows.comp): decoding-sized products that stream B once.
#include "kernels/registry.hpp"
#include "kernels/spirv.hpp"

namespace gemmtune {

namespace {
KernelFamily make_fewrows() {
  KernelFamily f;
  f.name = "fewrows";
  f.params = {{"cols", 1, {8, 16, 32, 64}}, {"slices", 2, {4, 8, 16, 32}}, {"unroll", 3, {1, 4, 8}}, {"vec", 4, {1, 4, 8}}};
  f.not_applicable = [](const GemmProblem& p, const vk::DeviceInfo&) -> std::optional<std::string> {
    // The integer kernel (gemm_fewrows_int.comp) holds 16 rows, the float one 8.
    const uint64_t max_rows = is_integer(p.dtype) ? 16 : 8;
    if (p.shape.m > max_rows)
      return "M = " + std::to_string(p.shape.m) + ": few-rows serves at most " + std::to_string(max_rows) + " rows of op(A)" +
             (is_integer(p.dtype) ? " for 8-bit integers" : "");
    // With B stored N x K this kernel would read B across a stride of K; rowdot reads those rows contiguously.
    if (p.layout.trans_b && !is_integer(p.dtype)) return "B stored N x K: rowdot serves it, reading rows of B contiguously";
    return std::nullopt;
  };
  f.constraints = device_limit_constraints();
  f.workgroup_size_constant_id = 0;
  f.workgroup_size = [](const Config& c) { return c.get("cols") * c.get("slices"); };
  f.shared_bytes = [](const Config& c, DType) { return uint64_t(c.get("cols")) * c.get("slices") * 8 * c.get("vec") * sizeof(float); };
  f.grid = [](const Config& c, const GemmProblem& p) {
    const uint64_t columns = uint64_t(c.get("cols")) * c.get("vec");
    return std::array<uint64_t, 3>{(p.shape.n + columns - 1) / columns, 1, p.shape.batch};
  };
  f.few_rows = true;
  f.spirv = fewrows_spirv;
  return f;
}
}  // namespace

const KernelFamily& fewrows_family() {
  static const KernelFamily family = make_fewrows();
  return family;
}

}  // namespace gemmtune
