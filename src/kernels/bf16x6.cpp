// f32 GEMM on the matrix units (kernels/gemm_bf16x6.comp): each f32 element split into three bfloat16 parts while
// staging (or once, by a pre-pass: `prepass1`), six products of parts on 16 x 16 x 16 fragments, each k step's sums
// flushed into an f32 accumulator (src/verify/split_model.hpp models it: within f32's bounds and 4x native f32's error
// on any data).
#include <algorithm>
#include <cmath>

#include "kernels/matrix_requirements.hpp"
#include "kernels/registry.hpp"

namespace gemmtune {

namespace {

constexpr uint64_t kParts = 3;
constexpr uint64_t kMaxFragments = 8;  // per subgroup: its accumulators and the step's zeroed fragments, 8 regs each

KernelFamily make_bf16x6() {
  KernelFamily f;
  f.name = "bf16x6";
  f.color = "#76b7b2";
  f.params = {{"bm", 1, {64, 128, 256}}, {"bn", 2, {64, 128, 256}}, {"bk", 3, {16, 32, 64}},
              {"sgm", 4, {2, 4}},        {"sgn", 5, {2, 4}},        {"splits", kNoSpecConstant, {1, 2, 4, 8}},
              {"stages", 6, {1, 2}}};
  f.not_applicable = [](const GemmProblem& p, const vk::DeviceInfo& d) -> std::optional<std::string> {
    if (p.dtype != DType::f32) return std::string("f32 inputs only: 16-bit inputs run on the matrix units as they are");
    if (p.mode == Mode::deterministic)
      return std::string("fast mode only: matrix-unit summation order is the device's");
    if (auto reason = coopmat_unsupported(d, "bf16")) return "not supported on " + d.name + ": " + *reason;
    return std::nullopt;
  };
  f.device_unsupported = [](DType, const vk::DeviceInfo& d) { return coopmat_unsupported(d, "bf16"); };
  f.constraints.push_back({"tile",
                           [](const KernelFamily&, const Config& c, const GemmProblem&,
                              const vk::DeviceInfo&) -> std::optional<std::string> {
                             const uint64_t wm = c.get("bm") / c.get("sgm"), wn = c.get("bn") / c.get("sgn");
                             if (wm % 16 != 0 || wn % 16 != 0)
                               return "a subgroup's block is not a whole number of 16 x 16 fragments";
                             if ((wm / 16) * (wn / 16) > kMaxFragments)
                               return "more than 8 accumulator fragments a subgroup (each has a zeroed twin a k step)";
                             return std::nullopt;
                           },
                           true});
  describe_split_tiles(f);
  f.workgroup_size_constant_id = 0;
  f.required_subgroup_size = 32;
  f.workgroup_size = [](const Config& c) { return c.get("sgm") * c.get("sgn") * 32; };
  f.shared_bytes = [](const Config& c, DType) {
    // As declared: three 16-bit part tiles per operand a stage, rows padded by 8 elements; the output staging (a 16 x
    // 20 fragment of f32 a subgroup) reuses them.
    const uint64_t bm = c.get("bm"), bn = c.get("bn"), bk = c.get("bk");
    const uint64_t staging = uint64_t(c.get("sgm")) * c.get("sgn") * 16 * 20 * 4;
    return std::max<uint64_t>(
        c.get("stages") * kParts * ((bm * bk + 8 * (bm + bk)) * 2 + (bk * bn + 8 * (bk + bn)) * 2), staging);
  };
  // As for coopmat: whole waves of tiles first, then k steps of 32, 4 subgroups, one stage (the part tiles fill the
  // shared memory a second stage would need).
  f.screening_rank = [](const Config& c, const GemmProblem& p, const vk::DeviceInfo& d) {
    return tile_wave_cost(c.get("bm"), c.get("bn"), c.get("splits"), p, d) + (c.get("bk") == 32 ? 0.0 : 1.0) +
           (c.get("sgm") * c.get("sgn") == 4 ? 0.0 : 0.75) + (c.get("stages") == 1 ? 0.0 : 0.5);
  };
  // One slot a round, as the SIMT families have, until its rate on a device says it deserves more.
  f.screening_weight = 1;
  f.matrix_units = true;
  f.numerics = "bf16x6";
  // Each element split once by a pre-pass where the tiles would split it in three or more tiles each (the same parts,
  // so the same error model).
  describe_prepass(
      f, [](DType) { return rules::Prepass::split_ab; }, "bf16x6_planes");
  return f;
}
}  // namespace

GEMMTUNE_DESCRIBE_FAMILY(bf16x6, make_bf16x6)

}  // namespace gemmtune
