// The warp-tiled f32 family (kernels/gemm_warptile.comp): the workgroup tile split into warp tiles of 32 lanes,
// each lane TM x TN outputs read as 16-byte runs from double-buffered shared tiles; split-k finished in the same pass
// or by the reduce pass (REDUCE).
#include <algorithm>
#include <cmath>

#include "core/shape_needs.hpp"
#include "kernels/registry.hpp"

namespace gemmtune {

namespace {
constexpr uint32_t kLanes = 32;  // lanes of a warp tile (a layout of invocations, not the device's subgroup)
constexpr uint32_t kPad = 4;     // floats after each k row of a shared tile (the shader's SA, SB)

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

std::optional<std::string> warptile_not_applicable(const GemmProblem& p, const vk::DeviceInfo&) {
  if (p.dtype != DType::f32)
    return std::string("f32 inputs only (the 16-bit and 8-bit types go to tiled and the matrix units)");
  if (p.mode == Mode::deterministic) return std::string("deterministic mode: tiled and splitk keep its fixed order");
  return std::nullopt;
}

std::optional<std::string> lane_grid(const KernelFamily&, const Config& c, const GemmProblem&, const vk::DeviceInfo&) {
  if (c.get("wm") % c.get("tm") != 0 || c.get("wn") % c.get("tn") != 0) return "wm (wn) is not a multiple of tm (tn)";
  const uint32_t lanes = (c.get("wm") / c.get("tm")) * (c.get("wn") / c.get("tn"));
  if (lanes != kLanes)
    return "(wm/tm) x (wn/tn) = " + std::to_string(lanes) + " lanes, a warp tile has " + std::to_string(kLanes);
  return std::nullopt;
}

std::optional<std::string> warp_tiles(const KernelFamily&, const Config& c, const GemmProblem&, const vk::DeviceInfo&) {
  if (c.get("bm") % c.get("wm") != 0 || c.get("bn") % c.get("wn") != 0)
    return "bm x bn = " + std::to_string(c.get("bm")) + " x " + std::to_string(c.get("bn")) + " is not made of " +
           std::to_string(c.get("wm")) + " x " + std::to_string(c.get("wn")) + " warp tiles";
  return std::nullopt;
}

std::optional<std::string> rows_rule(const KernelFamily&, const Config& c, const GemmProblem& p,
                                     const vk::DeviceInfo&) {
  // Elsewhere they read B once for every 16 rows of C, twice what 32-row tiles read.
  if (c.get("bm") == 16 && p.shape.m > 16)
    return "tiles of 16 rows serve M <= 16 only (M = " + std::to_string(p.shape.m) + ")";
  return std::nullopt;
}

std::optional<std::string> one_k_range_for_tiles(const KernelFamily&, const Config& c, const GemmProblem&,
                                                 const vk::DeviceInfo&) {
  if (c.get_or("tiles", 1) > 1 && c.get("splits") > 1) return std::string("several tiles a workgroup take one k range");
  // Measured only with the 16-byte stores, which short k loops gain from at one tile too.
  if (c.get_or("tiles", 1) > 1 && c.get_or("cvec", 0) == 0)
    return std::string("several tiles a workgroup write C as 16-byte runs (cvec1)");
  return std::nullopt;
}

std::optional<std::string> slices_rule(const KernelFamily&, const Config& c, const GemmProblem&,
                                       const vk::DeviceInfo&) {
  // Slices 1.. leave once their sums are in shared memory: every barrier after that is slice 0's alone, so no tiles in
  // turn and no one-pass finish.
  if (c.get_or("kslices", 1) > 1 && c.get_or("tiles", 1) > 1) return std::string("k slices take one tile a workgroup");
  if (c.get_or("kslices", 1) > 1 && c.get("splits") > 1 && c.get("reduce") == 0)
    return std::string("k slices finish split-k by the reduce pass (reduce1)");
  return std::nullopt;
}

std::optional<std::string> reduce_rule(const KernelFamily&, const Config& c, const GemmProblem&,
                                       const vk::DeviceInfo&) {
  if (c.get("reduce") == 1 && c.get("splits") == 1) return std::string("reduce: one range leaves nothing to add");
  return std::nullopt;
}

// Screening. Grids of 256 or more 128 x 128 tiles (128 or more with K over 1024): those tiles, unsplit, 8 x 8 outputs a
// lane (64 FMAs per 4 shared loads), 256 invocations, warp tiles of 32 x 64: the H200's fastest at 2048^3 and 4096^3
// (issue 22 steps 5-6; at BK 16 the same tile took 133 registers, past the 128 that fit two workgroups an SM). Smaller
// grids: 64 x 64 tiles of 8 x 4 outputs a lane (128 invocations at 89 registers, several workgroups an SM), warp tiles
// of 32 x 32, and the fewest splits that bring the grid to 384 workgroups: the H200's fastest at 1024x768x3072 (154.9
// us, 192 tiles in 8 ranges; 2 ranges 160.8) and 128x768x3072 (33.1 us, 24 tiles in 16), where 128 x 128 tiles ran 181
// and 40 (probe C). Grids of 128 to 255 such tiles with a short k loop (K <= 1024): 64 x 128 tiles of 8 x 4 outputs, 8
// warps of 32 x 32, unsplit: 1024x3072x768 ran in 137 us so against 185 for 128 x 128 (probe D), where 512x4096x14336
// (128 tiles, K = 14336) keeps 128 x 128 (1541 us against 1686 and more for smaller tiles). Small grids whose 64 x 64
// tiles cannot reach 384 workgroups in ranges of 64 terms or more: 32 x 64 tiles (2 warps of 32 x 32), 128x768x768 in
// 15.9 us on 48 tiles in 8 ranges against 17.9 on 24 (probe F). BK 8 throughout. The next k row's fragments read
// early (`ahead`) for the large tiles in every layout but nt.
double warptile_screening_rank(const Config& c, const GemmProblem& p, const vk::DeviceInfo&) {
  auto tiles = [&](uint64_t bm, uint64_t bn) {
    return ceil_div(p.shape.m, bm) * ceil_div(p.shape.n, bn) * p.shape.batch;
  };
  const bool small = tiles(128, 128) < 128;
  const bool short_k = !small && tiles(128, 128) < 256 && p.shape.k <= 1024;
  const uint64_t fill = small ? 384 : 128;
  // The splits that bring 64 x 64 tiles to `fill` workgroups, and whether K gives that many ranges (the space's rule).
  const bool thin = small && !split_ranges_fit(p.shape.k, uint32_t(ceil_div(fill, tiles(64, 64))));
  const bool narrow = small || short_k;  // 8 x 4 lanes in warps of 32 x 32
  // Decode-sized M (16 rows or fewer): a tile counts by the rows that hold outputs, each doubling of BM past them costs
  // as a doubling of area (those rows multiply zeros), and 16 x 128 tiles of 4 x 4 outputs in warps of 16 x 32 lead:
  // 43.9-46.1 us at 16x4096x4096 tt against 52.3 for 32 x 128 (notes, issue 43 steps 47 and 47b).
  const bool decode = p.shape.m <= 16;
  const double rows = decode ? std::min(double(c.get("bm")), 16.0) : double(c.get("bm"));
  const double zero_rows = 2.0 * std::log2(double(c.get("bm")) / rows);
  const double target_area = decode    ? 16.0 * 128.0
                             : thin    ? 32.0 * 64.0
                             : small   ? 64.0 * 64.0
                             : short_k ? 64.0 * 128.0
                                       : 128.0 * 128.0;
  const double area = 2.0 * std::abs(std::log2(rows * c.get("bn") / target_area)) + zero_rows;
  const double split =
      split_fill_cost(c.get("splits"), double(tiles(c.get("bm"), c.get("bn"))), double(fill), double(fill), 16.0);
  const double wanted_outputs = decode ? 16.0 : narrow ? 32.0 : 64.0;  // a lane's, TM x TN
  const double outputs = std::abs(std::log2(wanted_outputs / double(c.get("tm") * c.get("tn"))));
  const double warps = double((c.get("bm") / c.get("wm")) * (c.get("bn") / c.get("wn")));
  const double wg = std::abs(std::log2(warps / (thin ? 2.0 : small ? 4.0 : 8.0)));
  const double bk = std::abs(std::log2(double(c.get("bk")) / 8.0));
  const double warp = c.get("wm") == (decode ? 16u : 32u) && c.get("wn") == (narrow ? 32u : 64u) ? 0.0 : 0.25;
  // Tiles of the target's shape, and lanes at least as tall as wide (the measured 8 x 4, not 4 x 8), before others of
  // their area.
  const double wanted_ratio = decode ? 0.125 : short_k || thin ? 0.5 : 1.0;  // bm / bn
  const double shape =
      0.5 * std::abs(std::log2(rows / c.get("bn") / wanted_ratio)) + (c.get("tm") < c.get("tn") ? 0.25 : 0.0);
  // Split configs try the reduce pass first: the one-pass finish lost at M = 128 in step 7 (probe B measures both).
  const double finish = c.get("splits") > 1 && c.get("reduce") == 0 ? 0.25 : 0.0;
  // Fragments read a k row ahead: first for the large tiles but in nt (step 17 and the suite after it: 4096^3 nn 3506
  // -> 3383 us, 2048^3 tn 424.9 -> 420.8, tt 452.0 -> 440.8, but nt 431 -> 466 and 512x4096x14336 nt 1534 -> 1671; the
  // small grids within 2 %).
  const bool nt = !p.layout.trans_a && p.layout.trans_b;
  const bool ahead_first = !narrow && !nt;
  const double ahead = (c.get("ahead") == 1) == ahead_first ? 0.0 : 0.25;
  // Several tiles a workgroup after one, a doubling at a time: measured on the scores only (notes, issue 43 step 45).
  const double in_turn = 0.25 * std::log2(double(c.get_or("tiles", 1)));
  // 16-byte stores of C first where they are swept (a short k loop): they won at every such shape measured. A bonus,
  // so that the order of everything else stays as it was.
  const double stores = c.get_or("cvec", 0) == 1 ? -0.25 : 0.0;
  // Sliced k: unmeasured on the device when written (issue 43 step 49), so after the same tile in one slice.
  const double slices = c.get_or("kslices", 1) > 1 ? 0.5 : 0.0;
  return area + split + outputs + 0.5 * wg + 0.5 * bk + warp + shape + finish + ahead + in_turn + stores + slices;
}

KernelFamily make_warptile() {
  KernelFamily f;
  f.name = "warptile";
  f.color = "#bcbd22";
  // Spec constant 0 is the workgroup size; 1..7 the tile (see the shader header).
  f.params = {{"bm", 1, {16, 32, 64, 128}},
              {"bn", 2, {32, 64, 128}},
              {"bk", 3, {8, 16, 32}},
              {"wm", 4, {16, 32, 64}},
              {"wn", 5, {16, 32, 64}},
              {"tm", 6, {4, 8}},
              {"tn", 7, {4, 8}},
              {"splits", kNoSpecConstant, {1, 2, 3, 4, 6, 8, 12, 16}},
              {"reduce", 8, {0, 1}, 0},
              {"ahead", 9, {0, 1}, 0},
              {"tiles", 10, {1, 2, 4, 8}, 1},
              {"cvec", 11, {0, 1}, 0},
              {"kslices", 12, {1, 2}, 1}};
  // Several tiles a workgroup in turn, the next one's first step loaded before the current one is written (as
  // coopmat's), and C's runs of 4 columns as 16-byte stores: swept where the k loop is short against the tile's
  // stores (notes, issue 43 steps 44 and 45: K = 64-576 ran 5-25 % faster with the stores, K = 768-4096 3-6 % slower).
  f.params[10].swept_where = [](const GemmProblem& p) { return p.shape.k <= 512; };
  f.params[11].swept_where = [](const GemmProblem& p) { return p.shape.k <= 640; };
  // Sliced k: more warps a tile without split-k's planes, for the long k loops of small grids (512 or fewer 64 x 64
  // tiles) that split-k fills today (notes, issue 43: the planes and the reduce pass cost 15-30 us of 1500x768x3072's
  // 228-243).
  f.params[12].swept_where = [](const GemmProblem& p) {
    return p.shape.k >= 768 && ceil_div(p.shape.m, 64) * ceil_div(p.shape.n, 64) * p.shape.batch <= 512;
  };
  f.not_applicable = warptile_not_applicable;
  f.constraints.push_back({"lane_grid", lane_grid, true});
  f.constraints.push_back({"warp_tiles", warp_tiles, true});
  for (Constraint& c : device_limit_constraints()) f.constraints.push_back(std::move(c));
  f.constraints.push_back(split_range_constraint());
  f.constraints.push_back(split_scratch_constraint());
  f.constraints.push_back(split_device_scope_constraint());
  f.constraints.push_back({"rows", rows_rule});
  f.constraints.push_back({"tiles", one_k_range_for_tiles, true});
  f.constraints.push_back({"kslices", slices_rule, true});
  f.constraints.push_back({"reduce", reduce_rule, true});
  f.workgroup_size_constant_id = 0;
  f.workgroup_size = [](const Config& c) {
    return (c.get("bm") / c.get("wm")) * (c.get("bn") / c.get("wn")) * kLanes * c.get_or("kslices", 1);
  };
  // Two buffers of the k-major tiles, rows padded, the other k slices' sums (one float at least) and split-k's
  // arrival flag.
  f.shared_bytes = [](const Config& c, DType) {
    const uint64_t tiles = 2 * uint64_t(c.get("bk")) * (c.get("bm") + kPad + c.get("bn") + kPad);
    const uint64_t slices = (c.get_or("kslices", 1) - 1) * uint64_t(c.get("bm")) * c.get("bn") + 1;
    return (tiles + slices) * sizeof(float) + kSplitFlagBytes;
  };
  // reduce1 configs leave their planes to the reduce pass (H200, step 7: the last workgroup of each of 12 tiles
  // adding 16 planes alone took 57.4 us at 128x768x3072 where splitk's reduce pass took 44.4).
  f.dispatch_rule = [](const Config& c, DType) {
    rules::DispatchRule rule = tile_rule(c.get("bm"), c.get("bn") * c.get_or("tiles", 1), c.get("splits"));
    rule.one_pass_split = c.get("reduce") == 0;
    return rule;
  };
  f.one_pass_split = true;
  f.reduce_pass_too = true;
  f.shape_needs = [](const Config& c, DType, Layout) {
    ShapeNeeds needs;
    needs.splits = c.get("splits");
    if (c.get("bm") == 16) needs.max_m = 16;  // the "rows" constraint
    return needs;
  };
  f.screening_rank = warptile_screening_rank;
  return f;
}
}  // namespace

GEMMTUNE_DESCRIBE_FAMILY(warptile, make_warptile)

}  // namespace gemmtune
