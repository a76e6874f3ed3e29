// The quantized row family on packed dot products (kernels/gemm_qrowdp.comp): decoding-sized products with B a
// linear layer's weight in ggml's q8_0 or q4_0 blocks (stored N x K), op(A) quantized once by a pre-pass
// (kernels/quantize_a.comp) into two 8-bit parts a block, B's codes multiplied with them four at a time.
#include <algorithm>
#include <cmath>

#include "kernels/registry.hpp"
#include "kernels/spirv.hpp"

namespace gemmtune {

namespace {
constexpr uint64_t kQrowdpMaxRows = 16;  // rows of op(A): the kernel's accumulators are sized by M (constant 31)
constexpr uint64_t kQrowdpMaxAccumulators = 64;  // ROWS x M per invocation, so accumulators stay in registers

std::optional<std::string> qrowdp_device_unsupported(const vk::DeviceInfo& d) {
  if (!d.matrix.integer_dot_product)
    return std::string("shaderIntegerDotProduct is not supported (qrowdp multiplies by packed 8-bit dot products)");
  return subgroup_reduction_unsupported(d, "qrowdp");
}

std::optional<std::string> qrowdp_not_applicable(const GemmProblem& p, const vk::DeviceInfo& d) {
  if (!is_quantized(p.dtype)) return std::string("block-quantized B only (f16:q8_0, f16:q4_0, f32:q8_0, f32:q4_0)");
  if (p.mode == Mode::deterministic)
    return std::string("fast mode only: its summation order is not modelled for deterministic mode");
  if (p.shape.m > kQrowdpMaxRows)
    return "M = " + std::to_string(p.shape.m) + ": qrowdp serves at most 16 rows of op(A)";
  return qrowdp_device_unsupported(d);
}

// About 1024 workgroups first (N / (ROWS x GROUPS)), 4 rows a group, halves, 128 invocations, one block at a time,
// one group: on an H100 at N 4096, K 14336 every q8_0 winner of M = 2..8 took 4 rows and halves, 512 or 1024
// workgroups, one block ahead and one or two groups; quarters ran 10-60 % slower (notes, issue 48 step 31).
double qrowdp_screening_rank(const Config& c, const GemmProblem& p, const vk::DeviceInfo&) {
  const uint64_t wg_rows = uint64_t(c.get("rows")) * c.get("groups");
  const double workgroups = double((p.shape.n + wg_rows - 1) / wg_rows) * double(p.shape.batch);
  return std::abs(std::log2(workgroups / 1024.0)) + 0.5 * std::abs(std::log2(c.get("rows") / 4.0)) +
         (c.get("lanes") == 2 ? 0.0 : 1.0) + (c.get("wg") == 128 ? 0.0 : 0.5) + (c.get("ahead") == 1 ? 0.0 : 0.5) +
         0.25 * std::log2(double(c.get("groups")));
}

// Configs a decoding round: q8_0's codes need no decoding, so from M = 3 its products are most of the work and
// qrowdp opens the round (on an H100 6-23 % ahead of qrowdot at M = 4..8, and the cold tunes' winner at M = 3 in two
// calls); below that the pre-pass's dispatch (about 3 us) leaves it behind qrowdot's: two configs a round. q4_0's
// nibbles cost it less since its op(A) parts load as one vector a part and its pre-pass takes eight invocations a block
// (issue 48 steps 32 and 34): on an H100 it runs 5-16 % under qrowdot's best at M = 1..5 (level at M = 8), so it opens
// every q4_0 round.
uint32_t qrowdp_decoding_weight(const GemmProblem& p) {
  const bool q8 = b_block_format(p.dtype) == BlockFormat::q8_0;
  return !q8 || p.shape.m >= 3u ? 6u : 2u;
}

KernelFamily make_qrowdp() {
  KernelFamily f;
  f.name = "qrowdp";
  f.color = "#aec7e8";
  f.params = {{"wg", kNoSpecConstant, {32, 64, 128, 256}},
              {"rows", 1, {1, 2, 4, 8}},
              // Invocations a block: halves (2) or quarters (4) of its codes (common/quant_parts.glsl).
              {"lanes", 2, {2, 4}},
              {"ahead", 3, {1, 2, 4}, 1},
              {"groups", 4, {1, 2, 4, 8}, 1}};
  f.not_applicable = qrowdp_not_applicable;
  f.device_unsupported = [](DType, const vk::DeviceInfo& d) { return qrowdp_device_unsupported(d); };
  std::vector<Constraint> own = block_part_constraints();
  own.push_back({"quantized_a",
                 [](const KernelFamily&, const Config&, const GemmProblem& p,
                    const vk::DeviceInfo& d) -> std::optional<std::string> {
                   const uint64_t bytes = 4 * rules::quantized_a_words(operation_of(p));
                   if (bytes > d.max_storage_buffer_range)
                     return "op(A) quantized needs " + std::to_string(bytes) + " B, limit " +
                            std::to_string(d.max_storage_buffer_range) + " B";
                   return std::nullopt;
                 }});
  describe_row_streaming(f, kQrowdpMaxRows, kQrowdpMaxAccumulators, std::move(own));
  // Workgroup x: block x of ROWS x GROUPS rows, after the pre-pass; its plane takes the scratch buffer, so k is not
  // split.
  f.prepass_kind = [](DType) { return rules::Prepass::quantize_a; };
  f.plane_spirv = spirv_modules_named("qrowdp");
  f.dispatch_rule = [](const Config& c, DType) {
    rules::DispatchRule rule = column_rule(c.get("rows") * c.get("groups"), 1, false);
    rule.prepass = uint32_t(rules::Prepass::quantize_a);
    return rule;
  };
  f.one_pass_split = false;
  f.screening_rank = qrowdp_screening_rank;
  f.decoding_weight = qrowdp_decoding_weight;
  f.shape_needs = [](const Config& c, DType, Layout) {
    ShapeNeeds needs;
    needs.max_m = std::min(kQrowdpMaxRows, kQrowdpMaxAccumulators / c.get("rows"));
    needs.k_multiple = 32;
    return needs;
  };
  return f;
}
}  // namespace

GEMMTUNE_DESCRIBE_FAMILY(qrowdp, make_qrowdp)

}  // namespace gemmtune
