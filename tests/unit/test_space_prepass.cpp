#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/error.hpp"
#include "kernels/matrix_requirements.hpp"
#include "kernels/registry.hpp"
#include "kernels/spirv.hpp"
#include "kernels/space_file.hpp"
#include "tuner/space.hpp"

#include "space_devices.hpp"

namespace gemmtune {
namespace {
// The f32 matrix-unit family serves f32 in fast mode only, where bf16 cooperative matrices exist, and its space
// keeps a subgroup's fragments and the part tiles within registers and 48 KiB of shared memory.
TEST(Bf16x6Space, F32FastModeOnlyWithinRegistersAndSharedMemory) {
  const KernelFamily& f = family_named("bf16x6");
  vk::DeviceInfo d = matrix_device();
  d.compute_units = 132;
  GemmProblem p;
  p.shape = {4096, 4096, 4096, 1};
  SearchSpace s = build_search_space({&f}, p, d);
  ASSERT_FALSE(s.candidates.empty());
  EXPECT_TRUE(s.not_applicable.empty());
  std::map<std::string, int> codes;
  for (const PrunedConfig& pc : s.pruned) ++codes[pc.code];
  EXPECT_GT(codes["shared_memory"], 0);
  // 256 x 256 in 2 x 2 subgroups is 64 fragments a subgroup: no kernel of the family (its "tile" layout rule).
  const Config wide{{{"bm", 256}, {"bn", 256}, {"bk", 16}, {"sgm", 2}, {"sgn", 2}, {"splits", 1}, {"stages", 1}}};
  EXPECT_EQ(f.broken_layout_rule(wide).value_or("").rfind("tile: ", 0), 0u);
  for (const Config& c : f.all_configs()) EXPECT_NE(f.config_name(c, DType::f32), f.config_name(wide, DType::f32));
  for (const Candidate& c : s.candidates) {
    EXPECT_LE(f.shared_bytes(c.config, DType::f32), 49152u) << c.name;
    const uint32_t fragments =
        (c.config.get("bm") / c.config.get("sgm") / 16) * (c.config.get("bn") / c.config.get("sgn") / 16);
    EXPECT_LE(fragments, 8u) << c.name;
  }
  // 128 x 128 at BK 16, one stage: three 16-bit part tiles of each operand, rows padded by 8.
  Config c{{{"bm", 128}, {"bn", 128}, {"bk", 16}, {"sgm", 2}, {"sgn", 4}, {"splits", 1}, {"stages", 1}}};
  EXPECT_EQ(f.shared_bytes(c, DType::f32), 3u * 2 * 2 * (128 * 16 + 8 * (128 + 16)));
  for (DType t : {DType::f16, DType::bf16, DType::i8}) {
    p.dtype = t;
    EXPECT_EQ(build_search_space({&f}, p, d).not_applicable.size(), 1u) << dtype_name(t);
  }
  p.dtype = DType::f32;
  p.mode = Mode::deterministic;
  EXPECT_EQ(build_search_space({&f}, p, d).not_applicable.size(), 1u);
  p.mode = Mode::fast;
  d.matrix.bf16_coopmat = false;  // no bf16 products on the units
  ASSERT_EQ(build_search_space({&f}, p, d).not_applicable.size(), 1u);
  EXPECT_FALSE(f.device_unsupported(DType::f32, matrix_device()));
  EXPECT_TRUE(f.device_unsupported(DType::f32, d));
}
TEST(DecodePrepass, OnlyWeightsInBlocksSweepItAndItsPlanDecodesBOnceBeforeTheMainPass) {
  const vk::DeviceInfo d = matrix_device();
  for (const char* name : {"tiled", "coopmat"}) {
    const KernelFamily& f = family_named(name);
    GemmProblem dense;
    dense.shape = Shape{512, 256, 1024, 1};
    dense.dtype = DType::f16;
    dense.layout = Layout{false, true};
    for (const Candidate& c : build_search_space({&f}, dense, d).candidates)
      EXPECT_EQ(c.config.get("prepass"), 0u) << c.name;
    GemmProblem q = dense;
    q.dtype = DType::f16_q4_0;
    std::set<uint32_t> seen;
    for (const Candidate& c : build_search_space({&f}, q, d).candidates) seen.insert(c.config.get("prepass"));
    EXPECT_EQ(seen, (std::set<uint32_t>{0, 1})) << name;
  }
  // The plan: pre-pass, main pass; B's plane in the scratch, one matrix where the batch shares B.
  const KernelFamily& tiled = family_named("tiled");
  Config c{{{"bm", 64}, {"bn", 64}, {"bk", 16}, {"tm", 4}, {"tn", 4}, {"prepass", 1}}};
  EXPECT_EQ(tiled.config_name(c, DType::f32_q8_0), "tiled_f32q8_bm64_bn64_bk16_tm4_tn4_prepass1");
  EXPECT_TRUE(tiled.runs_prepass(c, DType::f32_q8_0));
  rules::Operation op = rules::packed(100, 300, 4096, false, true, 4, 3);
  rules::Plan plan = rules::plan(kernel_config(tiled, c, DType::f32_q8_0), op);
  ASSERT_EQ(plan.pass_count, 2u);
  EXPECT_EQ(plan.main_pass, 1u);
  EXPECT_EQ(plan.passes[0].module, 2u);
  EXPECT_EQ(plan.passes[1].module, 0u);
  EXPECT_EQ(plan.passes[0].grid, (std::array<uint64_t, 3>{4096 / 2048, 300, 3}));
  EXPECT_EQ(plan.passes[1].grid, (std::array<uint64_t, 3>{5, 2, 3}));
  EXPECT_EQ(plan.scratch_floats, 3u * 300 * 4096 / 2);
  op.stride_b = 0;
  plan = rules::plan(kernel_config(tiled, c, DType::f32_q8_0), op);
  EXPECT_EQ(plan.passes[0].grid[2], 1u);
  EXPECT_EQ(plan.scratch_floats, 300u * 4096 / 2);
  c.values.back().second = 0;
  EXPECT_EQ(rules::plan(kernel_config(tiled, c, DType::f32_q8_0), op).pass_count, 1u);
  // Refused with a reason: split-k (the plane takes the scratch: no kernel at all) and deterministic mode (B rounded
  // to f16).
  const KernelFamily& coopmat = family_named("coopmat");
  GemmProblem q;
  q.shape = Shape{512, 256, 1024, 1};
  q.dtype = DType::f16_q8_0;
  q.layout = Layout{false, true};
  Config split{
      {{"bm", 128}, {"bn", 128}, {"bk", 64}, {"sgm", 2}, {"sgn", 2}, {"splits", 2}, {"stages", 1}, {"prepass", 1}}};
  std::optional<std::string> why = coopmat.broken_layout_rule(split);
  ASSERT_TRUE(why.has_value());
  EXPECT_EQ(why->rfind("prepass_splits: ", 0), 0u) << *why;
  EXPECT_NE(why->find("scratch"), std::string::npos) << *why;
  split.values[5].second = 1;
  EXPECT_FALSE(coopmat.broken_layout_rule(split));
  why.reset();
  q.mode = Mode::deterministic;
  c.values.back().second = 1;
  for (const Constraint& k : tiled.constraints)
    if (k.code == "prepass") why = k.check(tiled, c, q, d);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("fast mode only"), std::string::npos) << *why;
}

TEST(DecodePrepass, MatrixUnitsDecodeOnceWhereThreeRowsOfTilesWouldEachDecodeB) {
  const KernelFamily& coopmat = family_named("coopmat");
  const vk::DeviceInfo d = matrix_device();
  auto rank = [&](uint64_t m, uint32_t prepass) {
    GemmProblem q;
    q.shape = Shape{m, 4096, 14336, 1};
    q.dtype = DType::f16_q4_0;
    q.layout = Layout{false, true};
    Config c{{{"bm", 128},
              {"bn", 128},
              {"bk", 64},
              {"sgm", 2},
              {"sgn", 2},
              {"splits", 1},
              {"stages", 1},
              {"prepass", prepass}}};
    return coopmat.screening_rank(c, q, d);
  };
  EXPECT_LT(rank(512, 1), rank(512, 0));
  EXPECT_LT(rank(128, 0), rank(128, 1));
}

/// The screening rank of `config` (its last parameter "prepass") with that parameter at `prepass`, for a packed
/// problem of `shape` and `dtype` on a device with the matrix units.
double prepass_rank(const KernelFamily& family, Config config, Shape shape, DType dtype, uint32_t prepass) {
  GemmProblem p;
  p.shape = shape;
  p.dtype = dtype;
  config.values.back().second = prepass;
  return family.screening_rank(config, p, matrix_device());
}

TEST(SplitPrepass, Bf16x6SplitsBothOperandsOnceIntoPartsItsMainPassReadsInOneLayout) {
  const KernelFamily& bf16x6 = family_named("bf16x6");
  EXPECT_EQ(bf16x6.prepass_for(DType::f32), rules::Prepass::split_ab);
  Config c{
      {{"bm", 128}, {"bn", 128}, {"bk", 32}, {"sgm", 2}, {"sgn", 2}, {"splits", 1}, {"stages", 1}, {"prepass", 1}}};
  EXPECT_EQ(bf16x6.config_name(c, DType::f32), "bf16x6_f32_bm128_bn128_bk32_sgm2_sgn2_splits1_stages1_prepass1");
  const rules::Operation op = rules::packed(300, 200, 1001, true, false, 4, 2);
  const rules::Plan plan = rules::plan(kernel_config(bf16x6, c, DType::f32), op);
  ASSERT_EQ(plan.pass_count, 2u);
  EXPECT_EQ(plan.main_pass, 1u);
  // Rows of op(A) and op(B)^T, K rounded up to 1008, three 16-bit parts an element, each product its own.
  EXPECT_EQ(rules::split_k_padded(1001), 1008u);
  EXPECT_EQ(plan.scratch_floats, 3u * 2 * (300 + 200) * 1008 / 2);
  EXPECT_EQ(plan.passes[0].grid, (std::array<uint64_t, 3>{(500 * 1008 / 8 + 255) / 256, 1, 2}));
  EXPECT_FALSE(prepass_spirv(rules::Prepass::split_ab, DType::f32).empty());
  EXPECT_FALSE(bf16x6.plane_spirv(DType::f32).empty());
  // First where the tiles would split each element three times or more (A once a column of tiles, B once a row).
  auto rank = [&](Shape shape, uint32_t prepass) { return prepass_rank(bf16x6, c, shape, DType::f32, prepass); };
  EXPECT_LT(rank({4096, 4096, 4096, 1}, 1), rank({4096, 4096, 4096, 1}, 0));
  EXPECT_LT(rank({128, 768, 3072, 1}, 0), rank({128, 768, 3072, 1}, 1));
}

TEST(AligningPrepass, CoopmatCopiesSixteenBitOperandsOnceOnlyWhereSomeTileWouldLeaveTheFastPath) {
  const KernelFamily& coopmat = family_named("coopmat");
  const vk::DeviceInfo d = matrix_device();
  EXPECT_EQ(coopmat.prepass_for(DType::f16), rules::Prepass::align_ab);
  EXPECT_EQ(coopmat.prepass_for(DType::bf16), rules::Prepass::align_ab);
  EXPECT_EQ(coopmat.prepass_for(DType::f16_q4_0), rules::Prepass::decode_b);
  EXPECT_EQ(coopmat.prepass_for(DType::i8), rules::Prepass::none);
  EXPECT_FALSE(coopmat.plane_spirv(DType::f16).empty());
  EXPECT_FALSE(coopmat.plane_spirv(DType::bf16).empty());
  auto copies = [&](const GemmProblem& p) {
    size_t with = 0, bk128 = 0;
    for (const Candidate& c : build_search_space({&coopmat}, p, d).candidates) {
      with += c.config.get("prepass");
      bk128 += c.config.get("prepass") == 1 && c.config.get("bk") == 128;
    }
    EXPECT_EQ(bk128, 0u) << "K is padded to a multiple of 64 only";
    return with;
  };
  GemmProblem p;
  p.dtype = DType::f16;
  p.shape = {777, 1234, 555, 1};  // rows of 555 and 1234 halves: off 16 bytes
  EXPECT_GT(copies(p), 0u);
  p.shape = {768, 1280, 576, 1};  // every tile on the fast path
  EXPECT_EQ(copies(p), 0u);
  p.b.ld = 1284;  // B's rows off 16 bytes
  EXPECT_GT(copies(p), 0u);
  p.b.ld.reset();
  p.shape = {768, 1280, 608, 1};  // a partial step of BK 64
  EXPECT_GT(copies(p), 0u);
  p.shape = {770, 1280, 576, 1};
  EXPECT_EQ(copies(p), 0u);  // A as stored: edge rows clamp to a real row, no copy needed
  p.layout = Layout{true, false};
  EXPECT_GT(copies(p), 0u);  // A stored K x M, M off whole groups of 8: edge groups straddle M
  p.dtype = DType::bf16;
  EXPECT_GT(copies(p), 0u);

  // The plan: the copy, then the main pass reading the planes; K padded to 576, rows of A (K x M) to 776.
  const Config c{
      {{"bm", 64}, {"bn", 64}, {"bk", 64}, {"sgm", 2}, {"sgn", 2}, {"splits", 1}, {"stages", 1}, {"prepass", 1}}};
  EXPECT_EQ(coopmat.config_name(c, DType::f16), "coopmat_f16_bm64_bn64_bk64_sgm2_sgn2_splits1_prepass1");
  const rules::Operation op = rules::packed(770, 1234, 555, true, false, 2, 3);
  const rules::Plan plan = rules::plan(kernel_config(coopmat, c, DType::f16), op);
  ASSERT_EQ(plan.pass_count, 2u);
  const uint64_t region = 576 * 776 + 576 * 1240;
  EXPECT_EQ(rules::aligned_planes(op).region(), region);
  EXPECT_EQ(plan.scratch_floats, 3 * region / 2);
  EXPECT_EQ(plan.passes[0].grid, (std::array<uint64_t, 3>{(region / 8 + 255) / 256, 1, 3}));

  // First in screening where each operand would be staged by three tiles or more, as the split's.
  auto rank = [&](Shape shape, uint32_t prepass) { return prepass_rank(coopmat, c, shape, DType::f16, prepass); };
  EXPECT_LT(rank({777, 1234, 555, 1}, 1), rank({777, 1234, 555, 1}, 0));
  EXPECT_LT(rank({100, 1234, 555, 1}, 0), rank({100, 1234, 555, 1}, 1));
  EXPECT_LT(rank({768, 1280, 608, 1}, 0), rank({768, 1280, 608, 1}, 1));  // only K's last step to gain
}

}  // namespace
}  // namespace gemmtune
