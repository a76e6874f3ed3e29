// The quantized row-dot family on the matrix units (kernels/gemm_qrowmma.comp): decoding-sized products with B a
// linear layer's weight in ggml's q8_0 or q4_0 blocks (stored N x K), each block decoded in registers to f16 and
// multiplied as 16 x 16 x 16 fragments with op(A) padded to 16 rows, B streamed once.
#include <cmath>

#include "kernels/matrix_requirements.hpp"
#include "kernels/registry.hpp"

namespace gemmtune {

namespace {
constexpr uint64_t kQrowMmaMaxRows = 16;  // op(A) is one fragment wide
// A trip's words per lane, in two buffers: per block and block of rows, 2 rows of a scale word and 2 (q4_0) or 3
// (q8_0) words holding the lane's code bytes; per block, op(A)'s two runs of 4 a row (4 words f16, 8 f32), twice
// where M > 8.
constexpr uint64_t kQrowMmaTripWords = 48;

uint64_t qrowmma_trip_words(const Config& c, const GemmProblem& p) {
  const bool q8 = p.dtype == DType::f16_q8_0 || p.dtype == DType::f32_q8_0;
  const bool a16 = p.dtype == DType::f16_q8_0 || p.dtype == DType::f16_q4_0;
  const uint64_t a_halves = p.shape.m > 8 ? 2 : 1;
  return uint64_t(c.get("unroll")) * (uint64_t(c.get("frags")) * 2 * (q8 ? 4 : 3) + a_halves * (a16 ? 4 : 8));
}

std::optional<std::string> qrowmma_not_applicable(const GemmProblem& p, const vk::DeviceInfo& d) {
  if (!is_quantized(p.dtype)) return std::string("block-quantized B only (f16:q8_0, f16:q4_0, f32:q8_0, f32:q4_0)");
  if (p.mode == Mode::deterministic) return std::string("fast mode only: matrix-unit summation order is the device's");
  if (p.shape.m > kQrowMmaMaxRows)
    return "M = " + std::to_string(p.shape.m) + ": qrowmma serves at most 16 rows of op(A)";
  if (auto reason = coopmat_unsupported(d, "f16")) return "not supported on " + d.name + ": " + *reason;
  return std::nullopt;
}

KernelFamily make_qrowmma() {
  KernelFamily f;
  f.name = "qrowmma";
  f.color = "#8c564b";
  f.params = {{"sgk", kNoSpecConstant, {2, 4, 8, 16}},
              {"frags", 1, {1, 2, 4}},
              {"unroll", 2, {1, 2, 4}},
              // Fragments built in registers where the device's layout is NVIDIA's (checked on the device); 0
              // stages them in shared memory, right on any layout.
              {"regs", 4, {0, 1}, 1},
              {"splits", kNoSpecConstant, {1, 2, 4, 8}, 1}};
  f.not_applicable = qrowmma_not_applicable;
  f.device_unsupported = [](DType, const vk::DeviceInfo& d) { return coopmat_unsupported(d, "f16"); };
  describe_fragment_rows(f, {{"registers",
                              [](const KernelFamily&, const Config& c, const GemmProblem& p,
                                 const vk::DeviceInfo&) -> std::optional<std::string> {
                                const uint64_t words = qrowmma_trip_words(c, p);
                                if (words > kQrowMmaTripWords)
                                  return std::to_string(words) + " words a trip per lane > " +
                                         std::to_string(kQrowMmaTripWords) + " (two trips held in registers)";
                                return std::nullopt;
                              }}});
  f.shape_needs = [](const Config& c, DType, Layout) {
    ShapeNeeds needs;
    needs.max_m = kQrowMmaMaxRows;
    needs.k_multiple = 32;
    needs.splits = c.get("splits");
    return needs;
  };
  // About two workgroups per SM of a large GPU first (N / (16 FRAGS) x SPLITS near 256), 16 then 8 subgroups (more
  // loads in flight), one block a trip, fragments in registers; k split only where the blocks of rows alone leave the
  // GPU short. On an H100 at N 4096, K 14336 the winners of the form that rounded B to f16 were sgk16_frags2_unroll1
  // at M = 4 and 8 and sgk8_frags2_unroll1_splits2 at M = 1 and 2; 4 subgroups ran 1.5x slower at every M (notes,
  // issue 48 steps 18-19).
  f.screening_rank = [](const Config& c, const GemmProblem& p, const vk::DeviceInfo&) {
    const double groups = double((p.shape.n + 16 * c.get("frags") - 1) / (16 * c.get("frags"))) * double(p.shape.batch);
    const uint32_t sgk = c.get("sgk"), unroll = c.get("unroll");
    const double sgk_cost = sgk == 16 ? 0.0 : (sgk == 8 ? 0.25 : 0.75);
    const double unroll_cost = unroll == 1 ? 0.0 : (unroll == 2 ? 0.25 : 0.5);
    return std::abs(std::log2(groups * c.get("splits") / 256.0)) + sgk_cost + unroll_cost +
           (c.get("regs") == 1 ? 0.0 : 1.0) + split_fill_cost(c.get("splits"), groups, 128, 256, 8);
  };
  // Four configs a decoding round, after qrowdot's four: exact in B it has run behind qrowdot up to M = 8, where the
  // form that rounded B ran ahead (notes, issue 48 steps 19-22b).
  return f;
}
}  // namespace

GEMMTUNE_DESCRIBE_FAMILY(qrowmma, make_qrowmma)

}  // namespace gemmtune
