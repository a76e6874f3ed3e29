// The portable tiled family (kernels/gemm_tiled.comp) and its split-k form: parameters, constraints, geometry.
#include <cmath>

#include "kernels/registry.hpp"
#include "kernels/spirv.hpp"

namespace gemmtune {

namespace {
constexpr uint64_t kMinSplitK = 128;  // two ranges of 64 terms

/// What tiled and splitk share: tile parameters, constraints and the tiled SPIR-V.
KernelFamily tile_family(const std::string& name, std::vector<ParamSpec> params) {
  KernelFamily f;
  f.name = name;
  // Spec constant 0 is the workgroup size; 1..5 are the tile parameters (see the shader header).
  f.params = std::move(params);
  f.constraints.push_back({"divisibility",
                           [](const KernelFamily&, const Config& c, const GemmProblem&,
                              const vk::DeviceInfo&) -> std::optional<std::string> {
                             if (c.get("bm") % c.get("tm") != 0) return "bm is not a multiple of tm";
                             if (c.get("bn") % c.get("tn") != 0) return "bn is not a multiple of tn";
                             return std::nullopt;
                           },
                           true});
  f.constraints.push_back(
      {"deterministic_order",
       [](const KernelFamily&, const Config& c, const GemmProblem& p,
          const vk::DeviceInfo&) -> std::optional<std::string> {
         if (p.mode == Mode::deterministic && c.get("bk") % 16 != 0)
           return "deterministic mode chains 16 products per staged step: bk must be a multiple of 16";
         return std::nullopt;
       }});
  for (Constraint& c : device_limit_constraints()) f.constraints.push_back(std::move(c));
  f.workgroup_size_constant_id = 0;
  f.workgroup_size = [](const Config& c) { return (c.get("bm") / c.get("tm")) * (c.get("bn") / c.get("tn")); };
  // Two k-major tiles, BK x BM and BK x BN floats, unpadded (held as vec4s: see the shader).
  f.shared_bytes = [](const Config& c, DType) {
    return uint64_t(c.get("bk")) * (c.get("bm") + c.get("bn")) * sizeof(float);
  };
  f.spirv = spirv_modules_named("tiled");  // splitk runs the tiled kernel too
  // 8-bit integers (kernels/gemm_tiled_int.comp; split-k keeps int32 partial sums in its planes): packed dot
  // products where the device has them (USE_DOT).
  f.alternative_spirv = spirv_modules_named("tiled_dot");
  f.alternative_applies = [](DType dtype, const vk::DeviceInfo& d) {
    return is_integer(dtype) && d.matrix.integer_dot_product;
  };
  return f;
}

KernelFamily make_tiled() {
  KernelFamily f = tile_family("tiled", {{"bm", 1, {32, 64, 128}},
                                         {"bn", 2, {32, 64, 128}},
                                         {"bk", 3, {8, 16, 32}},
                                         {"tm", 4, {1, 2, 4, 8}},
                                         {"tn", 5, {1, 2, 4, 8}}});
  f.color = "#4e79a7";
  f.dispatch_rule = [](const Config& c, DType) { return tile_rule(c.get("bm"), c.get("bn"), 1); };
  f.summation_order = [](const Config&, const GemmProblem& p, const vk::DeviceInfo&) {
    return ordered_sums(SummationOrder::Kind::tiled_groups, 1, 1, p);
  };
  describe_prepass(
      f, [](DType d) { return is_quantized(d) ? rules::Prepass::decode_b : rules::Prepass::none; }, "tiled_plane");
  return f;
}

// Split-k serves grids too small for the device: the fewest splits that bring the tiles to 384 workgroups (warptile's
// fill for small grids: issue 22 probes C and F on the H200), 32 outputs an invocation in lanes at least as tall as
// wide, BK 16, tiles of 8192 elements. The search benchmark's two f32 truths (tests/data/search) both peak there:
// 333x1111x555 nn at 32 x 128 in 4 ranges (396 workgroups), 2000x500x3000 tn at 128 x 64 in 3 (384).
double splitk_screening_rank(const Config& c, const GemmProblem& p, const vk::DeviceInfo&) {
  const uint64_t tiles = rules::ceil_div(p.shape.m, uint64_t(c.get("bm"))) *
                         rules::ceil_div(p.shape.n, uint64_t(c.get("bn"))) * p.shape.batch;
  const double fill = 384.0;
  const double split = split_fill_cost(c.get("splits"), double(tiles), fill, fill, 16.0);
  const double outputs = std::abs(std::log2(32.0 / double(c.get("tm") * c.get("tn"))));
  const double tall = c.get("tm") < c.get("tn") ? 0.25 : 0.0;
  const double bk = c.get("bk") == 16 ? 0.0 : 0.5;
  const double area = 0.5 * std::abs(std::log2(double(c.get("bm")) * c.get("bn") / 8192.0));
  return split + outputs + tall + bk + area;
}

KernelFamily make_splitk() {
  // Split-k serves small grids over a long k: fewer tile shapes, the split factor swept with them.
  KernelFamily f = tile_family("splitk", {{"bm", 1, {32, 64, 128}},
                                          {"bn", 2, {32, 64, 128}},
                                          {"bk", 3, {16, 32}},
                                          {"tm", 4, {2, 4, 8}},
                                          {"tn", 5, {2, 4, 8}},
                                          {"splits", kNoSpecConstant, {2, 3, 4, 6, 8, 12, 16}}});
  f.color = "#f28e2b";
  f.not_applicable = [](const GemmProblem& p, const vk::DeviceInfo&) -> std::optional<std::string> {
    if (p.shape.k < kMinSplitK)
      return "K = " + std::to_string(p.shape.k) + ": split-k needs at least 2 ranges of 64 terms";
    return std::nullopt;
  };
  f.constraints.push_back(split_range_constraint());
  f.constraints.push_back(split_scratch_constraint());
  f.screening_rank = splitk_screening_rank;
  f.dispatch_rule = [](const Config& c, DType) { return tile_rule(c.get("bm"), c.get("bn"), c.get("splits")); };
  // The planes are added in range order by the reduce pass (kernels/splitk_reduce.comp).
  f.shape_needs = [](const Config& c, DType, Layout) {
    ShapeNeeds needs;
    needs.min_k = kMinSplitK;
    needs.splits = c.get("splits");
    return needs;
  };
  f.summation_order = [](const Config& c, const GemmProblem& p, const vk::DeviceInfo&) {
    return ordered_sums(SummationOrder::Kind::tiled_groups, 1, c.get("splits"), p);
  };
  return f;
}
}  // namespace

GEMMTUNE_DESCRIBE_FAMILY(tiled, make_tiled)
GEMMTUNE_DESCRIBE_FAMILY(splitk, make_splitk)

}  // namespace gemmtune
