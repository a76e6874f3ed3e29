// The row-dot family on the matrix units (kernels/gemm_rowmma.comp): decoding-sized 16-bit products, computed as
// C^T = op(B)^T op(A)^T with 16 x 16 x 16 cooperative-matrix fragments of B (stored N x K or K x N) and op(A) padded
// to 16 rows, B streamed once.
#include <cmath>

#include "kernels/matrix_requirements.hpp"
#include "kernels/registry.hpp"

namespace gemmtune {

namespace {
constexpr uint64_t kRowMmaMaxRows = 16;  // op(A) is one fragment wide
constexpr uint64_t kMinNK = 16;          // edge blocks overlap the block before; the last k fragment ends at K
constexpr uint64_t kGroup = 8;           // 16-bit elements a 16-byte load holds: K's multiple, and N's for B K x N
// A trip's loads of B per lane, 16 bytes each, in two buffers (this trip's and the next's): 2 x 8 x 4 = 64 registers.
constexpr uint32_t kMaxTripFragments = 8;

/// Why the family cannot serve a problem on a device at all, or nullopt.
std::optional<std::string> rowmma_not_applicable(const GemmProblem& p, const vk::DeviceInfo& d) {
  if (p.dtype != DType::f16 && p.dtype != DType::bf16)
    return std::string("f16 and bf16 inputs only (16 x 16 x 16 matrix fragments)");
  if (p.shape.m > kRowMmaMaxRows)
    return "M = " + std::to_string(p.shape.m) + ": row-mma serves at most 16 rows of op(A)";
  if (p.mode == Mode::deterministic) return std::string("fast mode only: matrix-unit summation order is the device's");
  // Edge blocks overlap the block before (N, K >= 16); the last k fragment ends at K on a 16-byte boundary.
  if (p.shape.n < kMinNK || p.shape.k < kMinNK)
    return std::string("N and K of at least 16 (row-dot serves smaller ones)");
  if (p.shape.k % kGroup != 0)
    return "K = " + std::to_string(p.shape.k) + " is not a multiple of 8 (row-dot serves it)";
  const ResolvedOperand b = resolve(p).b;
  if (b.ld % 8 != 0 || b.offset % 8 != 0 || b.stride % 8 != 0)
    return std::string(
        "rows of B not on 16-byte boundaries (ld, offset and batch stride multiples of 8; row-dot serves them)");
  // B stored K x N: the last block of columns starts at N - 16, which its 16-byte loads need on an 8-column boundary.
  if (!p.layout.trans_b && p.shape.n % kGroup != 0)
    return "B stored K x N with N = " + std::to_string(p.shape.n) +
           ", not a multiple of 8 (the last block's 16-byte loads start at column N - 16; few-rows serves it)";
  if (auto reason = coopmat_unsupported(d, std::string(dtype_name(p.dtype))))
    return "not supported on " + d.name + ": " + *reason;
  return std::nullopt;
}

/// The family's own constraints: a trip's registers, how REGS and WIDE combine, and what B stored K x N allows.
std::vector<Constraint> rowmma_constraints() {
  std::vector<Constraint> out;
  out.push_back({"registers",
                 [](const KernelFamily&, const Config& c, const GemmProblem&,
                    const vk::DeviceInfo&) -> std::optional<std::string> {
                   if (c.get("frags") * c.get("unroll") > kMaxTripFragments)
                     return std::to_string(c.get("frags")) + " blocks x " + std::to_string(c.get("unroll")) +
                            " unroll = " + std::to_string(c.get("frags") * c.get("unroll")) +
                            " fragments of B a trip > " + std::to_string(kMaxTripFragments) +
                            " (16 bytes each per lane, two trips held in registers)";
                   return std::nullopt;
                 }});
  out.push_back(
      {"regs",
       [](const KernelFamily&, const Config& c, const GemmProblem&,
          const vk::DeviceInfo&) -> std::optional<std::string> {
         if (c.get("regs") == 1 && c.get("wide") == 1)
           return std::string(
               "wide loads are a way of staging fragments; fragments built in registers load their rows their own way");
         return std::nullopt;
       }});
  // B stored K x N: wide loads read rows of k (N x K only). Fragments built in registers serve both layouts (K x N
  // interleaves the rows of the workgroup's blocks, so that one load of values of n fills a lane's elements of all).
  out.push_back({"rows_of_k",
                 [](const KernelFamily&, const Config& c, const GemmProblem& p,
                    const vk::DeviceInfo&) -> std::optional<std::string> {
                   if (!p.layout.trans_b && c.get("wide") == 1)
                     return std::string("wide loads read rows of k: B stored N x K only");
                   return std::nullopt;
                 }});
  return out;
}

KernelFamily make_rowmma() {
  KernelFamily f;
  f.name = "rowmma";
  f.color = "#ff9da7";
  f.params = {{"sgk", kNoSpecConstant, {4, 8, 16}},
              {"frags", 1, {1, 2, 4}},
              {"unroll", 2, {2, 4, 8}},
              {"wide", 3, {0, 1}},
              {"regs", 4, {0, 1}, 0},
              {"splits", kNoSpecConstant, {1, 2, 4, 8}, 1}};
  f.not_applicable = rowmma_not_applicable;
  f.device_unsupported = [](DType t, const vk::DeviceInfo& d) {
    return coopmat_unsupported(d, std::string(dtype_name(t)));
  };
  describe_fragment_rows(f, rowmma_constraints());
  f.shape_needs = [](const Config& c, DType, Layout layout) {
    ShapeNeeds needs;
    needs.max_m = kRowMmaMaxRows;
    needs.min_n = needs.min_k = kMinNK;
    needs.k_multiple = kGroup;
    if (!layout.trans_b) needs.n_multiple = kGroup;  // B stored K x N: the last block starts on 16 bytes
    needs.splits = c.get("splits");
    return needs;
  };
  // Screening: the H200's winners at M = 4, 8 and 16 (notes, issue 18 step 8) first: about one workgroup per
  // SM of a large GPU (N / (16 FRAGS) near 128), 16 subgroups, 2 or 4 fragments a trip, wide loads. k split: none
  // where the blocks alone give about 128 workgroups, else the fewest splits that give 256 (8x768x14336 f16: 23.8
  // us unsplit, 15.7 us in 8 ranges; at N = 4096 every split lost 3-4 us: steps 17 and 18).
  f.screening_rank = [](const Config& c, const GemmProblem& p, const vk::DeviceInfo&) {
    const double groups = double((p.shape.n + 16 * c.get("frags") - 1) / (16 * c.get("frags"))) * double(p.shape.batch);
    return std::abs(std::log2(groups / 128.0)) + (c.get("sgk") == 16 ? 0.0 : 0.5) +
           (c.get("unroll") == 8 ? 0.25 : 0.0) + (c.get("wide") == 1 || c.get("regs") == 1 ? 0.0 : 0.125) +
           (c.get("regs") == 1 ? 0.0 : 0.25) + split_fill_cost(c.get("splits"), groups, 128, 256, 8);
  };
  f.screening_weight = 2;
  // From M = 5 on, 16-bit products run faster here than in rowdot on the H200 (notes, issue 18 steps 8 and 10),
  // whose unrolled trips also take the driver 0.5-3.4 s each to build there: rowmma opens the round with 6.
  f.decoding_weight = [](const GemmProblem& p) { return p.shape.m >= 5 ? 6u : 4u; };
  return f;
}
}  // namespace

GEMMTUNE_DESCRIBE_FAMILY(rowmma, make_rowmma)

}  // namespace gemmtune
