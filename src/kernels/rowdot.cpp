// The row-dot family (kernels/gemm_rowdot.comp): decoding-sized products with B stored N x K (a linear layer's
// weight, layouts nt and tt), each output a dot product of contiguous rows, B streamed once with 16-byte loads.
#include <cmath>

#include "kernels/registry.hpp"

namespace gemmtune {

namespace {
constexpr uint64_t kRowDotMaxRows = 16;    // rows of op(A): the kernel's accumulators are sized by M (constant 31)
constexpr uint64_t kMaxAccumulators = 64;  // ROWS x M per invocation, so accumulators stay in registers
// UNROLL x ROWS x M chunk products per loop trip, each V multiplies: the unrolled trip's size (llvmpipe took
// 80 s to build a trip of 256 for M = 16, the H200's driver 7-19 s for trips of 64 at M = 8 and 16).
constexpr uint64_t kMaxTripProducts = 32;
constexpr uint32_t kMinSubgroup = 8;  // the kernel keeps one partial sum per 8 invocations (one per subgroup)

// From M = 4 on in 16 bits (M = 8 in f32) the work on each loaded chunk of B bounds the kernel (probe 24: B
// resident in L2 ran no faster per byte), and trips of up to 16 chunk products (8 in f32: ROWS x M, times UNROLL)
// with as many rows as that allows won; more than that costs registers and much time (the H200, probe 24 and step
// 25, us: 4x4096x14336 f16 nt rows4 unroll1 33.5, rows2 unroll2 35.5-35.8, rows2 unroll1 36.5-36.9; 5x rows2
// unroll1 41.4, rows4 unroll1 69.6-73.6; 8x rows2 unroll1 51.5, unroll2 54.0, rows1 64.9 or more; 8x4096x2048 f32
// rows1 16.4-21.1, rows2 slower than all 12 of those).
double rowdot_screening_rank(const Config& c, const GemmProblem& p, const vk::DeviceInfo&) {
  const double groups =
      double((p.shape.n + c.get("rows") - 1) / c.get("rows")) * double(p.shape.batch) * c.get("splits");
  const double per_doubling = p.dtype == DType::f32 ? 0.25 : 1.0;
  const double split = per_doubling * std::log2(double(c.get("splits"))), size = c.get("wg") == 128 ? 0.0 : 0.5;
  const bool work_bound = p.shape.m >= (p.dtype == DType::f32 ? 8u : 4u);
  if (work_bound) {
    const double trip =
        double(c.get("rows")) * double(std::min(p.shape.m, kRowDotMaxRows)) / (p.dtype == DType::f32 ? 8.0 : 16.0);
    return (trip > 1.0 ? 3.0 * std::log2(trip) : -std::log2(trip)) + 0.5 * std::log2(double(c.get("unroll"))) +
           0.25 * std::abs(std::log2(groups / 2048.0)) + split + size;
  }
  return std::abs(std::log2(groups / 2048.0)) + split + size + (c.get("unroll") == 2 ? 0.0 : 0.25);
}

/// Why the family cannot serve a problem on a device at all, or nullopt.
std::optional<std::string> rowdot_not_applicable(const GemmProblem& p, const vk::DeviceInfo& d) {
  if (is_integer(p.dtype)) return std::string("8-bit integer inputs: fewrows serves them");
  if (p.shape.m > kRowDotMaxRows)
    return "M = " + std::to_string(p.shape.m) + ": row-dot serves at most 16 rows of op(A)";
  if (!p.layout.trans_b)
    return std::string("B stored K x N: row-dot reads rows of B stored N x K (fewrows streams K x N)");
  return subgroup_reduction_unsupported(d, "row-dot");
}

KernelFamily make_rowdot() {
  KernelFamily f;
  f.name = "rowdot";
  f.color = "#edc948";
  f.params = {{"wg", kNoSpecConstant, {32, 64, 128, 256}},
              {"rows", 1, {1, 2, 4, 8}},
              {"unroll", 2, {1, 2, 4}},
              {"splits", kNoSpecConstant, {1, 2, 4, 8, 16}, 1}};
  f.not_applicable = rowdot_not_applicable;
  describe_row_streaming(f, kRowDotMaxRows, kMaxAccumulators,
                         {{"unrolled_trip",
                           [](const KernelFamily&, const Config& c, const GemmProblem& p,
                              const vk::DeviceInfo&) -> std::optional<std::string> {
                             const uint64_t products =
                                 uint64_t(c.get("unroll")) * c.get("rows") * std::min(p.shape.m, kRowDotMaxRows);
                             if (products > kMaxTripProducts)
                               return std::to_string(c.get("unroll")) + " unroll x " + std::to_string(c.get("rows")) +
                                      " rows x M = " + std::to_string(p.shape.m) + " chunk products per trip > " +
                                      std::to_string(kMaxTripProducts);
                             return std::nullopt;
                           }}});
  // Screening: about 4 workgroups per SM slot of a large GPU first (N / ROWS x SPLITS near 2048), 128 invocations,
  // two chunks in flight per row. Each doubling of the splits costs a quarter point in f32 and a point in 16 bits:
  // on the H200 at 8x768x14336 nt 4 ranges won in f32 (23.2 us, unsplit 34.3 at best screened) and lost in f16
  // (16.4 against 13.2 unsplit; notes, issue 18 step 19).
  f.screening_rank = rowdot_screening_rank;
  // M is bounded by the kernel (16 rows), the accumulators (ROWS x M) and the unrolled trip (UNROLL x ROWS x M).
  f.shape_needs = [](const Config& c, DType, Layout) {
    ShapeNeeds needs;
    needs.max_m = std::min({kRowDotMaxRows, kMaxAccumulators / c.get("rows"),
                            kMaxTripProducts / (uint64_t(c.get("rows")) * c.get("unroll"))});
    needs.splits = c.get("splits");
    return needs;
  };
  // The butterfly runs over the subgroup the driver picks: any power of two the device lists (8 or more).
  f.summation_order = [](const Config& c, const GemmProblem& p, const vk::DeviceInfo& d) {
    SummationOrder order = ordered_sums(SummationOrder::Kind::row_chunks, c.get("wg"), c.get("splits"), p);
    const uint32_t low =
        d.matrix.min_subgroup_size ? std::min(d.matrix.min_subgroup_size, d.subgroup_size) : d.subgroup_size;
    const uint32_t high = std::max(d.matrix.max_subgroup_size, d.subgroup_size);
    order.subgroup_widths.push_back(d.subgroup_size);
    for (uint32_t w = std::max(low, kMinSubgroup); w <= high; w *= 2)
      if (w != d.subgroup_size) order.subgroup_widths.push_back(w);
    return order;
  };
  return f;
}
}  // namespace

GEMMTUNE_DESCRIBE_FAMILY(rowdot, make_rowdot)

}  // namespace gemmtune
