// The few-rows family (kernels/gemm_fewrows.comp): decoding-sized products that stream B once.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "kernels/registry.hpp"

namespace gemmtune {

namespace {
/// The integer kernel (gemm_fewrows_int.comp) holds 16 rows of op(A), the float one 8.
uint64_t max_rows_of(DType dtype) { return is_integer(dtype) ? 16 : 8; }

/// Elements of the aligned unit in which the float kernel reads rows of B that are not 16-byte aligned (odd N), or
/// 0 where it does not (VEC 1, aligned rows, B stored N x K, the integer kernel): as UNITS and UNIT in the shader.
uint64_t unaligned_unit(const Config& c, const GemmProblem& p) {
  const uint64_t per_16_bytes = 16 / dtype_bytes(p.dtype);
  if (is_integer(p.dtype) || c.get("vec") == 1 || p.layout.trans_b || resolve(p).b.rows_aligned(per_16_bytes)) return 0;
  return std::min<uint64_t>(c.get("vec"), per_16_bytes);
}

/// A workgroup covers COLS x VEC columns, less UNIT - 1 where rows of B are read in aligned units (WIDTH in the
/// shader), and SPLITS k ranges side by side.
rules::DispatchRule fewrows_rule(const Config& c, DType dtype) {
  rules::DispatchRule rule = column_rule(c.get("cols") * c.get("vec"), c.get("splits"), true);
  if (!is_integer(dtype) && c.get("vec") > 1)
    rule.columns_unaligned_b = rule.columns - (std::min<uint32_t>(c.get("vec"), 16 / dtype_bytes(dtype)) - 1);
  return rule;
}

/// Tiles of columns.
uint64_t column_tiles(const Config& c, const GemmProblem& p) {
  return rules::column_blocks(fewrows_rule(c, p.dtype), operation_of(p));
}

/// The rows of op(A) the kernel holds, K's split-k ranges and, where rows of B are not 16-byte aligned and are read
/// in units of UNIT elements, an N that makes SLICES x N a whole number of units (the unit_shift constraint; B
/// stored K x N, N its leading dimension).
ShapeNeeds shape_needs(const Config& c, DType dtype, Layout) {
  ShapeNeeds needs;
  needs.max_m = max_rows_of(dtype);
  if (!is_integer(dtype) && c.get("vec") > 1) {
    const uint64_t unit = std::min<uint64_t>(c.get("vec"), 16 / dtype_bytes(dtype));
    needs.n_multiple = unit / std::gcd<uint64_t>(unit, c.get("slices"));
  }
  needs.splits = c.get("splits");
  return needs;
}

/// Why the family cannot serve a problem on a device at all, or nullopt.
std::optional<std::string> fewrows_not_applicable(const GemmProblem& p, const vk::DeviceInfo&) {
  const uint64_t max_rows = max_rows_of(p.dtype);
  if (p.shape.m > max_rows)
    return "M = " + std::to_string(p.shape.m) + ": few-rows serves at most " + std::to_string(max_rows) +
           " rows of op(A)" + (is_integer(p.dtype) ? " for 8-bit integers" : "");
  // With B stored N x K this kernel would read B across a stride of K; rowdot reads those rows contiguously.
  if (p.layout.trans_b && !is_integer(p.dtype))
    return "B stored N x K: rowdot serves it, reading rows of B contiguously";
  return std::nullopt;
}

KernelFamily make_fewrows() {
  KernelFamily f;
  f.name = "fewrows";
  f.color = "#59a14f";
  f.params = {{"cols", 1, {8, 16, 32, 64}},
              {"slices", 2, {4, 8, 16, 32}},
              {"unroll", 3, {1, 4, 8}},
              {"vec", 4, {1, 4, 8}},
              {"splits", kNoSpecConstant, {1, 2, 4, 8, 16, 32}, 1}};
  f.not_applicable = fewrows_not_applicable;
  f.constraints = device_limit_constraints();
  // Unaligned rows in aligned units: an invocation's shift must be the same in every row it reads (k = s, s +
  // SLICES, ...), so SLICES rows of B must span a whole number of units.
  f.constraints.push_back({"unit_shift",
                           [](const KernelFamily&, const Config& c, const GemmProblem& p,
                              const vk::DeviceInfo&) -> std::optional<std::string> {
                             const uint64_t unit = unaligned_unit(c, p);
                             const uint64_t ldb = resolve(p).b.ld;
                             if (unit > 1 && (uint64_t(c.get("slices")) * ldb) % unit != 0)
                               return std::to_string(c.get("slices")) + " slices x ldb " + std::to_string(ldb) +
                                      " is not a multiple of the " + std::to_string(unit) +
                                      "-element unit that unaligned rows are read in";
                             return std::nullopt;
                           }});
  f.constraints.push_back(split_range_constraint());
  f.constraints.push_back(split_scratch_constraint());
  f.constraints.push_back(
      {"integer_splits",
       [](const KernelFamily&, const Config& c, const GemmProblem& p,
          const vk::DeviceInfo&) -> std::optional<std::string> {
         if (is_integer(p.dtype) && c.get("splits") != 1)
           return std::string(
               "the integer few-rows kernel has no split-k (its columns fill the device at the M it serves)");
         return std::nullopt;
       }});
  // The last workgroup of a tile is found with a device-scope atomic.
  f.constraints.push_back(split_device_scope_constraint());
  f.workgroup_size_constant_id = 0;
  f.workgroup_size = [](const Config& c) { return c.get("cols") * c.get("slices"); };
  // The slice sums: COLS x SLICES invocations, each 8 x VEC sums, 4 bytes each; the float kernel keeps M x VEC
  // (M is its specialization constant 31, at most 8), the integer one 8 rows a pass whatever M is. The float
  // kernel also holds split-k's arrival flag (common/split_one_pass.glsl).
  f.shared_bytes = [](const Config& c, DType dtype) {
    return uint64_t(c.get("cols")) * c.get("slices") * 8 * c.get("vec") * sizeof(float) +
           (is_integer(dtype) ? 0 : kSplitFlagBytes);
  };
  f.problem_shared_bytes = [](const Config& c, const GemmProblem& p) {
    const uint64_t rows = is_integer(p.dtype) ? 8 : std::min<uint64_t>(p.shape.m, 8);
    return uint64_t(c.get("cols")) * c.get("slices") * rows * c.get("vec") * sizeof(float) +
           (is_integer(p.dtype) ? 0 : kSplitFlagBytes);
  };
  // Workgroup x: tile x / SPLITS of columns, k range x % SPLITS; split-k is finished by each tile's last
  // workgroup (one counter a tile and product).
  f.dispatch_rule = fewrows_rule;
  f.one_pass_split = true;
  // Screening (the H200 at 1x51865x768 nn, notes issue 18 steps 9 and 15): 32 column groups (a subgroup reads
  // one row's consecutive groups), 16-byte groups, 8 slices and one load a trip on aligned rows; aligned units
  // with 16 slices and 4 loads a trip where rows are not (odd N: more invocations for the fewer, wider groups).
  // k split: the fewest splits that give 64 or more workgroups (step 18: 1x768x14336 f16 nn, 3 to 48 tiles, took
  // 31.5 us at best unsplit and 11.1 us in 32 ranges; 1x51865x768, 103 to 209 tiles, lost 2 us with 2 ranges).
  f.screening_rank = [](const Config& c, const GemmProblem& p, const vk::DeviceInfo&) {
    const uint32_t vec_first = std::min<uint32_t>(16 / dtype_bytes(p.dtype), 8);
    const bool units = !resolve(p).b.rows_aligned(16 / dtype_bytes(p.dtype));
    return (c.get("cols") == 32   ? 0.0
            : c.get("cols") == 64 ? 0.5
                                  : 1.0) +
           0.5 * std::abs(std::log2(c.get("slices") / (units ? 16.0 : 8.0))) +
           (c.get("vec") == vec_first ? 0.0 : 0.25) + (c.get("unroll") == (units ? 4u : 1u) ? 0.0 : 0.25) +
           split_fill_cost(c.get("splits"), double(column_tiles(c, p) * p.shape.batch), 64, 64, 32);
  };
  f.few_rows = true;
  f.shape_needs = shape_needs;
  f.summation_order = [](const Config& c, const GemmProblem& p, const vk::DeviceInfo&) {
    return ordered_sums(SummationOrder::Kind::slices, c.get("slices"), c.get("splits"), p);
  };
  return f;
}
}  // namespace

GEMMTUNE_DESCRIBE_FAMILY(fewrows, make_fewrows)

}  // namespace gemmtune
