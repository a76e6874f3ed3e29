// The quantized row-dot family (kernels/gemm_qrowdot.comp): decoding-sized products with B a linear layer's weight in
// ggml's q8_0 or q4_0 blocks, stored N x K (layouts nt and tt), each block decoded in registers as it streams.
#include <algorithm>
#include <cmath>

#include "kernels/registry.hpp"

namespace gemmtune {

namespace {
constexpr uint64_t kMaxRows = 16;          // rows of op(A): the kernel's accumulators are sized by M (constant 31)
constexpr uint64_t kMaxAccumulators = 64;  // ROWS x M per invocation, so accumulators stay in registers
constexpr uint32_t kMinSubgroup = 8;       // one partial sum per 8 invocations (one per subgroup)

// Codes become floats through f16 pairs (gemm_qrowdot.comp's pair_codes), so the module needs 16-bit arithmetic.
std::optional<std::string> qrowdot_device_unsupported(const vk::DeviceInfo& d) {
  if (!d.matrix.shader_float16) return std::string("shaderFloat16 is not supported (qrowdot decodes in f16 pairs)");
  return subgroup_reduction_unsupported(d, "qrowdot");
}

std::optional<std::string> qrowdot_not_applicable(const GemmProblem& p, const vk::DeviceInfo& d) {
  if (!is_quantized(p.dtype)) return std::string("block-quantized B only (f16:q8_0, f16:q4_0, f32:q8_0, f32:q4_0)");
  if (p.mode == Mode::deterministic)
    return std::string("fast mode only: its summation order is not modelled for deterministic mode");
  if (p.shape.m > kMaxRows) return "M = " + std::to_string(p.shape.m) + ": qrowdot serves at most 16 rows of op(A)";
  return qrowdot_device_unsupported(d);
}

// Blocks loaded ahead: a second one first where few rows of op(A) leave the loop memory-bound (M <= 4), one where
// the arithmetic of more rows hides the loads.
double ahead_cost(uint32_t ahead, uint64_t m) {
  const uint32_t wanted = m <= 4 ? 2 : 1;
  return ahead == wanted ? 0.0 : 0.5;
}

// About 4 workgroups per SM slot of a large GPU first (N / (ROWS x GROUPS) x SPLITS near 2048), 128 invocations,
// then fewer accumulators; each doubling of the splits half a point; a whole block an invocation (lanes 1) after the
// halves and quarters, which were faster at every M of 1..8 on the large GPUs measured (halves and quarters alike:
// each type's winners took both).
double qrowdot_screening_rank(const Config& c, const GemmProblem& p, const vk::DeviceInfo&) {
  const uint64_t wg_rows = uint64_t(c.get("rows")) * c.get("groups");
  const double workgroups = double((p.shape.n + wg_rows - 1) / wg_rows) * double(p.shape.batch) * c.get("splits");
  const double accumulators = double(c.get("rows")) * double(std::min(p.shape.m, kMaxRows));
  return std::abs(std::log2(workgroups / 2048.0)) + 0.5 * std::log2(double(c.get("splits"))) +
         (c.get("wg") == 128 ? 0.0 : 0.5) + 0.25 * std::log2(accumulators) + (c.get("lanes") == 1 ? 2.0 : 0.0) +
         ahead_cost(c.get("ahead"), p.shape.m);
}

KernelFamily make_qrowdot() {
  KernelFamily f;
  f.name = "qrowdot";
  f.color = "#17becf";
  f.params = {{"wg", kNoSpecConstant, {32, 64, 128, 256}},
              {"rows", 1, {1, 2, 4, 8}},
              // Invocations a block: 2 or 4 share one, so a subgroup's loads cover contiguous bytes of B and op(A);
              // halves (2) pay a row's scale, addresses and loads once for 16 codes where quarters do for 8.
              {"lanes", 2, {1, 2, 4}, 1},
              {"splits", kNoSpecConstant, {1, 2, 4, 8, 16}},
              // Blocks whose words a quarter-block invocation loads before decoding them: more of B in flight.
              {"ahead", 3, {1, 2, 4}, 1},
              // Groups of subgroups taking different rows of B at the same k: op(A) read once from L2 for all.
              {"groups", 4, {1, 2, 4, 8}, 1}};
  f.not_applicable = qrowdot_not_applicable;
  // `devices` names the devices that serve the quantized types' decoding kernel.
  f.device_unsupported = [](DType, const vk::DeviceInfo& d) { return qrowdot_device_unsupported(d); };
  describe_row_streaming(f, kMaxRows, kMaxAccumulators, block_part_constraints());
  // Workgroup x: block x / SPLITS of ROWS x GROUPS rows, k range x % SPLITS.
  f.dispatch_rule = [](const Config& c, DType) {
    return column_rule(c.get("rows") * c.get("groups"), c.get("splits"), true);
  };
  f.screening_rank = qrowdot_screening_rank;
  f.shape_needs = [](const Config& c, DType, Layout) {
    ShapeNeeds needs;
    needs.max_m = std::min(kMaxRows, kMaxAccumulators / c.get("rows"));
    needs.k_multiple = 32;
    needs.splits = c.get("splits");
    return needs;
  };
  return f;
}
}  // namespace

GEMMTUNE_DESCRIBE_FAMILY(qrowdot, make_qrowdot)

}  // namespace gemmtune
