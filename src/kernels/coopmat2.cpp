// The workgroup-scope cooperative-matrix family (kernels/gemm_coopmat2.comp, VK_NV_cooperative_matrix2):
// f16/bf16 inputs, f32 accumulation, the driver staging operands through shared memory.
#include <cmath>

#include "kernels/matrix_requirements.hpp"
#include "kernels/registry.hpp"

namespace gemmtune {

namespace {

KernelFamily make_coopmat2() {
  KernelFamily f;
  f.name = "coopmat2";
  f.color = "#b07aa1";
  f.params = {{"wg", 0, {128, 256}},
              {"bm", 1, {64, 128, 256}},
              {"bn", 2, {64, 128, 256}},
              {"bk", 3, {32, 64}},
              {"splits", kNoSpecConstant, {1, 2, 4, 8}}};
  f.not_applicable = [](const GemmProblem& p, const vk::DeviceInfo& d) -> std::optional<std::string> {
    if (p.dtype == DType::f32) return std::string("f32 inputs: the cooperative-matrix kernel takes f16 or bf16");
    if (is_integer(p.dtype))
      return std::string("8-bit integer inputs: no coopmat2 kernel for them (coopmat serves them on the matrix units)");
    if (p.mode == Mode::deterministic)
      return std::string("fast mode only: matrix-unit summation order is the device's");
    if (auto reason = coopmat2_unsupported(d, std::string(dtype_name(p.dtype))))
      return "not supported on " + d.name + ": " + *reason;
    return std::nullopt;
  };
  f.device_unsupported = [](DType t, const vk::DeviceInfo& d) {
    return coopmat2_unsupported(d, std::string(dtype_name(t)));
  };
  f.constraints.push_back({"tile",
                           [](const KernelFamily&, const Config& c, const GemmProblem&,
                              const vk::DeviceInfo&) -> std::optional<std::string> {
                             // The accumulator lives in registers: 256 x 128 f32 over 256 invocations is 128 each.
                             if (uint64_t(c.get("bm")) * c.get("bn") > 256u * 128u)
                               return "tiles go up to 256x128 and 128x256";
                             if (uint64_t(c.get("bm")) * c.get("bn") / c.get("wg") > 128u)
                               return "more than 128 accumulators per invocation";
                             return std::nullopt;
                           },
                           true});
  f.constraints.push_back({"matrix_shape",
                           [](const KernelFamily&, const Config& c, const GemmProblem& p,
                              const vk::DeviceInfo& d) -> std::optional<std::string> {
                             return coopmat2_unsupported(d, std::string(dtype_name(p.dtype)), c.get("wg"), c.get("bm"),
                                                         c.get("bn"), c.get("bk"));
                           }});
  describe_split_tiles(f);
  f.workgroup_size_constant_id = 0;
  f.required_subgroup_size = 0;  // workgroup scope: the driver divides the work among subgroups itself
  f.workgroup_size = [](const Config& c) { return c.get("wg"); };
  f.shared_bytes = [](const Config&, DType) {
    return uint64_t(0);
  };  // the kernel declares none; the driver's staging is its own
  // Screening: as for coopmat (src/kernels/coopmat.cpp), large tiles where they fill the device, 64x64 where
  // they do not, square before oblong, split-k only where the tiles alone leave it idle; 128 invocations and
  // BK 64 first (the H200's winners at 4096^3, 2048^3 and 1024x768x3072: results/h200/notes.md, step 12).
  f.screening_rank = [](const Config& c, const GemmProblem& p, const vk::DeviceInfo& d) {
    return tile_wave_cost(c.get("bm"), c.get("bn"), c.get("splits"), p, d) +
           0.5 * std::abs(std::log2(double(c.get("bm")) / c.get("bn"))) + (c.get("bk") == 64 ? 0.0 : 1.0) +
           (c.get("wg") == 128 ? 0.0 : 0.5);
  };
  // One config a round: it won none of the 114 entries of the H200's models table (results/h200/models) and ran at
  // 0.61-0.81 of the optimum at best on the search benchmark's six 16-bit and 8-bit problems (tests/data/search),
  // where coopmat's three a round find the optimum.
  f.screening_weight = 1;
  f.matrix_units = true;
  return f;
}
}  // namespace

GEMMTUNE_DESCRIBE_FAMILY(coopmat2, make_coopmat2)

}  // namespace gemmtune
