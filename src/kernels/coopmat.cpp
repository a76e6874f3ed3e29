// The cooperative-matrix family: kernels/gemm_coopmat.comp (16 x 16 x 16 f16/bf16 fragments, f32 sums; also built
// for f16 or f32 activations with B in ggml's q8_0 / q4_0 blocks, decoded while staging) and, for 8-bit integers,
// kernels/gemm_coopmat_int.comp (16 x 32 by 32 x 16 fragments, 32-bit wrapping sums), which takes the same tuned
// constants.
#include <algorithm>
#include <cmath>

#include "kernels/matrix_requirements.hpp"
#include "kernels/registry.hpp"

namespace gemmtune {

namespace {

/// The input type the fragments hold: the problem's, or f16 for weights in blocks (decoded to f16 while staging,
/// with f32 activations rounded to f16 there).
DType fragment_dtype(DType dtype) { return is_quantized(dtype) ? DType::f16 : dtype; }
std::string fragment_type(DType dtype) { return std::string(dtype_name(a_dtype(fragment_dtype(dtype)))); }

constexpr uint64_t kMostSumFragments = 18;  // a subgroup's 16 x 16 f32 sums screened first (screening rank)
constexpr uint64_t kShortK = 512;           // K up to which several tiles a workgroup are swept

/// The columns of C a workgroup covers: TILES tiles of BN side by side (1 in configs written before the parameter).
uint32_t workgroup_columns(const Config& c) { return c.get("bn") * c.get_or("tiles", 1); }

/// Whether each compute unit has little work: the problem's 128 x 128 tiles a unit times its k steps of 64 under
/// kShortWork. Every ground truth of the search benchmark (tests/data/search: 4 to 46 such steps a unit on the H200)
/// is short, and there 4 x 4 subgroups ran fastest: 128 x 128 x 64 tiles at 0.91-1.00 of the optimum on five of six,
/// 2 x 2 at 0.71-0.82 (0.55 and 0.29 on the sixth). Longer problems keep 2 x 2 first: no exhaustive run places the
/// turn above 46, and at 4096^3 (496) 2 x 2 ran fastest (issue 21 step 3, 8 and 16 subgroups 14 % slower).
constexpr double kShortWork = 50.0;
bool short_work(const GemmProblem& p, const vk::DeviceInfo& d) {
  if (d.compute_units == 0) return false;  // unknown: the long problems' order, which the standard suite measured
  const double tiles = double((p.shape.m + 127) / 128) * double((p.shape.n + 127) / 128) * double(p.shape.batch);
  return tiles / double(d.compute_units) * (double(p.shape.k) / 64.0) < kShortWork;
}

/// Subgroups a workgroup, 2 or 4 down and across: 2 x 2 first for long problems; for short ones 4 x 4, whose many
/// subgroups hide the latency a unit with few tiles cannot hide with other workgroups.
double subgroups_cost(const Config& c, const GemmProblem& p, const vk::DeviceInfo& d) {
  const uint32_t preferred = short_work(p, d) ? 4 : 2;
  return (c.get("sgm") == preferred ? 0.0 : 0.75) + (c.get("sgn") == preferred ? 0.0 : 0.75);
}

// Screening order, lower first: the winners on the H200 (results/h200/notes.md, issue 5 steps 5 and 10, issue 21
// steps 5 and 16) are 128x128 tiles, or 64x64 where few tiles cover C, with k steps of 128 bytes a row (BK 64 for
// 16-bit inputs, 128 for 8-bit; single-buffered since interior tiles stage from advanced indices; 64 bytes
// double-buffered next) and 4 subgroups where each unit has much work (8 and 16 lost at 4096^3 and 2048^3: issue 21
// steps 3-5), 16 where it has little (subgroups_cost); split-k only where the tiles alone leave the device idle;
// square tiles before others of the same area.
double coopmat_screening_rank(const Config& c, const GemmProblem& p, const vk::DeviceInfo& d) {
  const uint64_t step_bytes = uint64_t(c.get("bk")) * dtype_bytes(fragment_dtype(p.dtype));
  // Where the device's compute units are known, whole waves decide the tile (96 x 192 and 192 x 128 tiles won
  // mid-size grids by 1.1-1.45x on the H200: notes, issue 43 step 2), so oblong tiles are not held back.
  const bool units_known = d.compute_units > 0;
  // A subgroup's sums take 8 registers a lane a fragment: 18 (192 x 96 with 2 x 2 subgroups, 144 registers) won
  // Whisper's 1500-row layers on the H200, but 24 (128 x 192 with 2 x 2) ran 1494 us at 2048x14336x4096 there,
  // 128 x 128 (16) 894 (notes, issue 43 step 14), where the waves alone rank the larger tile first.
  const uint64_t sums = (c.get("bm") / c.get("sgm") / 16) * (c.get("bn") / c.get("sgn") / 16);
  // A workgroup of several tiles in turn is one wider tile to the waves: fewer workgroups, and less of each tile's
  // start and first loads left in the open (the 512-token scores ran fastest at 2, the 2048-token at 4).
  return tile_wave_cost(c.get("bm"), workgroup_columns(c), c.get("splits"), p, d) +
         (sums > kMostSumFragments ? 3.0 : 0.0) +
         (step_bytes == 128  ? 0.0
          : step_bytes == 64 ? 1.0
                             : 2.0) +
         subgroups_cost(c, p, d) + (c.get("stages") == 2 ? 0.0 : 0.5) +
         (c.get("bm") == c.get("bn") || units_known ? 0.0 : 0.75);
}

/// Every group of A and B that a tile stages is a whole 16-byte vector of its operand (gemm_coopmat.comp's fast path,
/// k steps aside): rows on 16 bytes, and no edge group straddles M (A stored K x M) or N (B stored K x N).
bool groups_whole(const rules::Operation& op) {
  return rules::a_aligned(op) && rules::b_aligned(op) && (!op.trans_a || op.m % 8 == 0) &&
         (op.trans_b || op.n % 8 == 0);
}

/// Weights in blocks: B decoded once by a pre-pass where many rows of tiles would each decode it while staging.
/// 16-bit floats: A and B copied once to rows on 16 bytes where the staging would load words, or bound-check a partial
/// k step or edge groups, in every tile; swept only where some tile would leave the fast path.
void describe_prepasses(KernelFamily& f) {
  describe_prepass(
      f,
      [](DType d) {
        return is_quantized(d)                       ? rules::Prepass::decode_b
               : d == DType::f16 || d == DType::bf16 ? rules::Prepass::align_ab
                                                     : rules::Prepass::none;
      },
      "coopmat_plane",
      [](const GemmProblem& p) {
        const rules::Operation op = operation_of(p);
        return is_quantized(p.dtype) || !groups_whole(op) || op.k % 64 != 0;
      });
  // Where the groups are whole and only K's last step is partial, the copy's own pass costs more than that one step
  // a tile saves, so it is screened after the staging.
  f.screening_rank = [rank = f.screening_rank](const Config& c, const GemmProblem& p, const vk::DeviceInfo& d) {
    const bool tail_only = c.get_or("prepass", 0) == 1 && !is_quantized(p.dtype) && groups_whole(operation_of(p));
    return rank(c, p, d) + (tail_only ? 2.0 : 0.0);
  };
  f.constraints.push_back({"aligning_prepass",
                           [](const KernelFamily& family, const Config& c, const GemmProblem& p,
                              const vk::DeviceInfo&) -> std::optional<std::string> {
                             if (c.get_or("prepass", 0) == 1 &&
                                 family.prepass_for(p.dtype) == rules::Prepass::align_ab && 64 % c.get("bk") != 0)
                               return std::string(
                                   "the aligning pre-pass pads K to a multiple of 64: BK must divide 64");
                             return std::nullopt;
                           }});
}

KernelFamily make_coopmat() {
  KernelFamily f;
  f.name = "coopmat";
  f.color = "#e15759";
  // Subgroups: 2 or 4 down by 2 or 4 across (4 to 16), each owning a block of 16 x 16 accumulators.
  f.params = {{"bm", 1, {64, 96, 128, 192, 256}},
              {"bn", 2, {64, 96, 128, 192, 256}},
              {"bk", 3, {16, 32, 64, 128}},
              {"sgm", 4, {2, 4}},
              {"sgn", 5, {2, 4}},
              {"splits", kNoSpecConstant, {1, 2, 4, 8}},
              {"stages", 6, {1, 2}, 1},
              {"tiles", 7, {1, 2, 4, 8}, 1}};
  // Several tiles a workgroup in turn (the next one's first loads in flight while the current one is written out):
  // the float kernel only (the 8-bit one has one tile a workgroup), swept where the k loop is short against the
  // tile's f32 stores, the small-K batched products (notes, issue 43 step 43).
  f.params.back().applies = [](DType d) { return !is_integer(d); };
  f.params.back().swept_where = [](const GemmProblem& p) { return p.shape.k <= kShortK; };
  f.not_applicable = [](const GemmProblem& p, const vk::DeviceInfo& d) -> std::optional<std::string> {
    if (p.dtype == DType::f32)
      return std::string("f32 inputs: the cooperative-matrix kernel takes f16, bf16 or 8-bit integers");
    // Integer sums are exact in any order, so only the float kernels are fast mode only.
    if (p.mode == Mode::deterministic && !is_integer(p.dtype))
      return std::string("fast mode only: matrix-unit summation order is the device's");
    if (auto reason = coopmat_unsupported(d, fragment_type(p.dtype)))
      return "not supported on " + d.name + ": " + *reason;
    return std::nullopt;
  };
  f.device_unsupported = [](DType t, const vk::DeviceInfo& d) { return coopmat_unsupported(d, fragment_type(t)); };
  f.constraints.push_back({"tile",
                           [](const KernelFamily&, const Config& c, const GemmProblem&,
                              const vk::DeviceInfo&) -> std::optional<std::string> {
                             if (uint64_t(c.get("bm")) * c.get("bn") > 256u * 128u)
                               return "tiles go up to the area of 256x128";
                             if ((c.get("bm") / c.get("sgm")) % 16 != 0 || (c.get("bn") / c.get("sgn")) % 16 != 0)
                               return "a subgroup's block is not a whole number of 16 x 16 fragments";
                             return std::nullopt;
                           },
                           true});
  // The integer kernel steps k by whole 32-deep fragments and writes int32 C directly (no split-k), a tile a workgroup.
  f.constraints.push_back({"integer",
                           [](const KernelFamily&, const Config& c, const GemmProblem& p,
                              const vk::DeviceInfo&) -> std::optional<std::string> {
                             if (!is_integer(p.dtype)) return std::nullopt;
                             if (c.get("bk") % 32 != 0)
                               return "8-bit integer fragments are 32 deep: BK must be a multiple of 32";
                             if (c.get("splits") != 1)
                               return "the integer coopmat kernel has no split-k (the splitk variant serves long k)";
                             if (c.get_or("tiles", 1) != 1)
                               return std::string("the integer coopmat kernel computes one tile a workgroup");
                             return std::nullopt;
                           }});
  describe_split_tiles(f);
  f.dispatch_rule = [](const Config& c, DType) {
    return tile_rule(c.get("bm"), workgroup_columns(c), c.get("splits"));
  };
  f.workgroup_size_constant_id = 0;
  f.required_subgroup_size = 32;
  f.workgroup_size = [](const Config& c) { return c.get("sgm") * c.get("sgn") * 32; };
  f.shared_bytes = [](const Config& c, DType dtype) {
    // As declared in the shaders: each tile sized for either orientation (rows padded by 16 bytes), and the
    // output staging of 4-byte sums, a 16 x 20 fragment a subgroup: beside the tiles in the integer kernel, in
    // the tiles' memory in the float one.
    const uint64_t bm = c.get("bm"), bn = c.get("bn"), bk = c.get("bk");
    const uint64_t staging = uint64_t(c.get("sgm")) * c.get("sgn") * 16 * 20 * 4;
    if (is_integer(dtype)) return c.get("stages") * ((bm * bk + 16 * (bm + bk)) + (bk * bn + 16 * (bk + bn))) + staging;
    return std::max<uint64_t>(c.get("stages") * ((bm * bk + 8 * (bm + bk)) * 2 + (bk * bn + 8 * (bk + bn)) * 2),
                              staging);
  };
  // Where it applies it is several times faster than the SIMT variants for 16-bit inputs, so it takes three
  // of every four screening slots.
  f.screening_rank = coopmat_screening_rank;
  f.screening_weight = 3;
  f.matrix_units = true;
  describe_prepasses(f);
  return f;
}
}  // namespace

GEMMTUNE_DESCRIBE_FAMILY(coopmat, make_coopmat)

}  // namespace gemmtune
