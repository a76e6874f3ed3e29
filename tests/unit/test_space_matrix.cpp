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

using namespace gemmtune;

TEST(CoopmatSpace, SeveralTilesAWorkgroupAreSweptForShortKFloatProductsAndRankedAsOneWiderTileToTheWaves) {
  vk::DeviceInfo d = matrix_device();
  d.compute_units = 132;
  const KernelFamily& coopmat = family_named("coopmat");
  auto tiles_swept = [&](Shape shape, DType dtype) {
    GemmProblem p;
    p.dtype = dtype;
    p.layout = Layout{false, true};
    p.shape = shape;
    std::set<uint32_t> values;
    for (const Candidate& c : build_search_space({&coopmat}, p, d).candidates) values.insert(c.config.get("tiles"));
    return values;
  };
  EXPECT_EQ(tiles_swept({2048, 2048, 128, 32}, DType::f16), (std::set<uint32_t>{1, 2, 4, 8}));
  EXPECT_EQ(tiles_swept({512, 512, 512, 12}, DType::bf16), (std::set<uint32_t>{1, 2, 4, 8}));
  EXPECT_EQ(tiles_swept({1024, 768, 768, 1}, DType::f16), (std::set<uint32_t>{1}));   // a long k loop
  EXPECT_EQ(tiles_swept({2048, 2048, 128, 32}, DType::i8), (std::set<uint32_t>{1}));  // one tile a workgroup there
  {
    // Named outright (bench --config), the 8-bit kernel's config with several tiles is refused with the reason.
    GemmProblem p;
    p.dtype = DType::i8;
    p.layout = Layout{false, true};
    p.shape = {2048, 2048, 128, 32};
    const Config c{
        {{"bm", 128}, {"bn", 128}, {"bk", 128}, {"sgm", 2}, {"sgn", 2}, {"splits", 1}, {"stages", 1}, {"tiles", 2}}};
    std::optional<std::string> reason;
    for (const Constraint& rule : coopmat.constraints)
      if (!reason) reason = rule.check(coopmat, c, p, d);
    ASSERT_TRUE(reason);
    EXPECT_NE(reason->find("one tile a workgroup"), std::string::npos) << *reason;
  }
  // The H100's measurements (notes, issue 43 step 43): at 512 x 512 x 128 x 32 two 256 x 128 tiles a workgroup ran
  // fastest (128 workgroups) and four slowest (64); at 2048 x 2048 x 128 x 32 four 192 x 128 tiles beat one.
  auto rank = [&](Shape shape, std::vector<std::pair<std::string, uint32_t>> values, uint32_t tiles) {
    GemmProblem p;
    p.dtype = DType::f16;
    p.layout = Layout{false, true};
    p.shape = shape;
    values.push_back({"splits", 1});
    values.push_back({"stages", 1});
    values.push_back({"tiles", tiles});
    values.push_back({"prepass", 0});
    return coopmat.screening_rank(Config{values}, p, d);
  };
  const std::vector<std::pair<std::string, uint32_t>> t256{
      {"bm", 256}, {"bn", 128}, {"bk", 32}, {"sgm", 4}, {"sgn", 4}};
  EXPECT_LT(rank({512, 512, 128, 32}, t256, 2), rank({512, 512, 128, 32}, t256, 1));
  EXPECT_LT(rank({512, 512, 128, 32}, t256, 1), rank({512, 512, 128, 32}, t256, 4));
  const std::vector<std::pair<std::string, uint32_t>> t192{
      {"bm", 192}, {"bn", 128}, {"bk", 64}, {"sgm", 4}, {"sgn", 4}};
  EXPECT_LT(rank({2048, 2048, 128, 32}, t192, 4), rank({2048, 2048, 128, 32}, t192, 2));
  EXPECT_LT(rank({2048, 2048, 128, 32}, t192, 2), rank({2048, 2048, 128, 32}, t192, 1));
}

TEST(RowMmaSpace, BStoredKByNTakesStagedAndRegisterConfigsAtEveryBlockCountAndNeedsWholeGroupsOfColumns) {
  const vk::DeviceInfo d = matrix_device();
  GemmProblem p;
  p.dtype = DType::f16;
  p.shape = {8, 4096, 4096, 1};
  const KernelFamily& rowmma = family_named("rowmma");
  for (Layout layout : {Layout{false, false}, Layout{true, false}}) {
    p.layout = layout;
    EXPECT_FALSE(rowmma.not_applicable(p, d)) << layout.name();
    const SearchSpace s = build_search_space({&rowmma}, p, d);
    ASSERT_FALSE(s.candidates.empty()) << layout.name();
    // Wide loads read rows of k, which B stored K x N does not have; fragments built in registers interleave the
    // rows of the workgroup's one, two or four blocks there.
    std::set<uint32_t> regs_frags;
    for (const Candidate& c : s.candidates) {
      EXPECT_EQ(c.config.get("wide"), 0u) << c.name;
      if (c.config.get("regs") == 1) regs_frags.insert(c.config.get("frags"));
    }
    EXPECT_EQ(regs_frags, (std::set<uint32_t>{1, 2, 4})) << layout.name();
    p.layout.trans_b = true;
    const SearchSpace nt = build_search_space({&rowmma}, p, d);
    EXPECT_GT(nt.candidates.size(), s.candidates.size()) << layout.name();
  }
  p.layout = Layout{false, false};
  p.shape = {8, 4100, 4096, 1};
  p.b.ld = 4104;  // rows on 16 bytes, but the last block of columns would start at column 4084
  const auto reason = rowmma.not_applicable(p, d);
  ASSERT_TRUE(reason);
  EXPECT_NE(reason->find("N = 4100, not a multiple of 8"), std::string::npos) << *reason;
  p.layout.trans_b = true;
  EXPECT_FALSE(rowmma.not_applicable(p, d));
  // Lookups hold a config of an nn or tn entry to whole groups of 8 columns, one of an nt or tt entry not.
  const std::vector<std::pair<std::string, uint32_t>> staged{{"sgk", 16}, {"frags", 2}, {"unroll", 2}, {"wide", 0}};
  const auto tn = tuned_shape_needs("rowmma", staged, DType::f16, Layout{true, false});
  const auto nt = tuned_shape_needs("rowmma", staged, DType::f16, Layout{false, true});
  ASSERT_TRUE(tn && nt);
  EXPECT_EQ(tn->n_multiple, 8u);
  EXPECT_EQ(nt->n_multiple, 1u);
}

TEST(CoopmatQualification, FollowsTheReportedCapabilitiesOnly) {
  vk::DeviceInfo d = matrix_device();
  EXPECT_FALSE(coopmat_unsupported(d, "f16"));
  EXPECT_FALSE(coopmat_unsupported(d, "bf16"));
  auto reason_with = [&](auto change, const char* input) {
    vk::DeviceInfo x = matrix_device();
    change(x);
    auto r = coopmat_unsupported(x, input);
    return r ? *r : std::string("supported");
  };
  EXPECT_NE(reason_with([](vk::DeviceInfo& x) { x.matrix.extension = false; }, "f16").find("VK_KHR_cooperative_matrix"),
            std::string::npos);
  EXPECT_NE(reason_with([](vk::DeviceInfo& x) { x.matrix.shapes.erase(x.matrix.shapes.begin()); }, "f16")
                .find("16x16x16 f16"),
            std::string::npos);
  EXPECT_EQ(reason_with([](vk::DeviceInfo& x) { x.matrix.shapes.erase(x.matrix.shapes.begin()); }, "bf16"),
            "supported");
  EXPECT_NE(
      reason_with([](vk::DeviceInfo& x) { x.matrix.shapes[0].scope = "workgroup"; }, "f16").find("subgroup-scope"),
      std::string::npos);
  EXPECT_NE(
      reason_with([](vk::DeviceInfo& x) { x.matrix.storage_16bit = false; }, "f16").find("storageBuffer16BitAccess"),
      std::string::npos);
  EXPECT_NE(reason_with([](vk::DeviceInfo& x) { x.matrix.memory_model = false; }, "f16").find("vulkanMemoryModel"),
            std::string::npos);
  EXPECT_NE(reason_with([](vk::DeviceInfo& x) { x.matrix.bf16_coopmat = false; }, "bf16").find("shaderBFloat16"),
            std::string::npos);
  EXPECT_EQ(reason_with([](vk::DeviceInfo& x) { x.matrix.bf16_extension = false; }, "f16"), "supported");
  // Subgroups of 32: fixed, or selectable with full subgroups.
  EXPECT_NE(reason_with(
                [](vk::DeviceInfo& x) {
                  x.subgroup_size = 64;
                  x.matrix.min_subgroup_size = x.matrix.max_subgroup_size = 64;
                },
                "f16")
                .find("subgroups of 32"),
            std::string::npos);
  EXPECT_EQ(reason_with(
                [](vk::DeviceInfo& x) {
                  x.subgroup_size = 64;
                  x.matrix.min_subgroup_size = 32;
                  x.matrix.max_subgroup_size = 64;
                },
                "f16"),
            "supported");
}

TEST(CoopmatQualification, EightBitIntegersNeedAListedWrappingCombinationAndShaderInt8) {
  EXPECT_FALSE(coopmat_unsupported(matrix_device(), "i8"));
  EXPECT_FALSE(coopmat_unsupported(matrix_device(), "u8"));
  auto reason_with = [&](auto change, const char* input) {
    vk::DeviceInfo x = matrix_device();
    change(x);
    auto r = coopmat_unsupported(x, input);
    return r ? *r : std::string("supported");
  };
  auto nothing = [](vk::DeviceInfo&) {};
  // The H200 lists no mixed-sign combination: u8i8 (unsigned A, signed B) is refused by name.
  EXPECT_EQ(reason_with(nothing, "u8i8"), "no 16x16x32 u8 x i8 -> i32 subgroup-scope cooperative matrix is listed");
  EXPECT_EQ(reason_with(
                [](vk::DeviceInfo& x) {
                  x.matrix.shapes.push_back({16, 16, 32, "u8", "i8", "i32", "i32", false, "subgroup"});
                },
                "u8i8"),
            "supported");
  // Saturating sums would not wrap like int32; 16-deep integer fragments are not what the kernel uses.
  EXPECT_NE(reason_with([](vk::DeviceInfo& x) { x.matrix.shapes[2].saturating = true; }, "i8")
                .find("no 16x16x32 i8 x i8 -> i32"),
            std::string::npos);
  EXPECT_NE(reason_with([](vk::DeviceInfo& x) { x.matrix.shapes[3].k = 16; }, "u8").find("u8 x u8 -> u32"),
            std::string::npos);
  EXPECT_EQ(reason_with([](vk::DeviceInfo& x) { x.matrix.shader_int8 = false; }, "i8"), "shaderInt8 is not supported");
  EXPECT_EQ(reason_with([](vk::DeviceInfo& x) { x.matrix.shader_int8 = false; }, "f16"), "supported");
  // 16-bit storage and shaderFloat16 are the float kernels' needs, not the integer kernel's.
  EXPECT_EQ(reason_with([](vk::DeviceInfo& x) { x.matrix.storage_16bit = x.matrix.shader_float16 = false; }, "i8"),
            "supported");
}

TEST(Coopmat2Qualification, FollowsTheReportedCapabilitiesOnly) {
  vk::DeviceInfo d = matrix2_device();
  EXPECT_FALSE(coopmat2_unsupported(d, "f16"));
  EXPECT_FALSE(coopmat2_unsupported(d, "bf16", 256, 128, 256, 64));
  auto reason_with = [&](auto change, const char* input, uint32_t wg = 0, uint32_t bm = 0, uint32_t bn = 0,
                         uint32_t bk = 0) {
    vk::DeviceInfo x = matrix2_device();
    change(x);
    auto r = coopmat2_unsupported(x, input, wg, bm, bn, bk);
    return r ? *r : std::string("supported");
  };
  auto same = [](vk::DeviceInfo&) {};
  EXPECT_NE(
      reason_with([](vk::DeviceInfo& x) { x.matrix2.extension = false; }, "f16").find("VK_NV_cooperative_matrix2"),
      std::string::npos);
  EXPECT_NE(reason_with([](vk::DeviceInfo& x) { x.matrix2.workgroup_scope = false; }, "f16").find("WorkgroupScope"),
            std::string::npos);
  EXPECT_NE(reason_with([](vk::DeviceInfo& x) { x.matrix2.tensor_addressing = false; }, "f16").find("TensorAddressing"),
            std::string::npos);
  EXPECT_NE(reason_with([](vk::DeviceInfo& x) { x.matrix2.per_element_operations = false; }, "f16").find("PerElement"),
            std::string::npos);
  EXPECT_NE(reason_with([](vk::DeviceInfo& x) { x.matrix.bf16_coopmat = false; }, "bf16").find("shaderBFloat16"),
            std::string::npos);
  EXPECT_EQ(reason_with([](vk::DeviceInfo& x) { x.matrix.bf16_coopmat = false; }, "f16"), "supported");
  // Only workgroup-scope entries count.
  EXPECT_NE(reason_with(
                [](vk::DeviceInfo& x) {
                  for (auto& s : x.matrix2.shapes) s.scope = "subgroup";
                },
                "f16")
                .find("workgroup-scope f16"),
            std::string::npos);
  // Per config: the workgroup size must be listed and within the limit, the tile a multiple of the granularity.
  EXPECT_EQ(reason_with(same, "f16", 128, 64, 64, 32), "supported");
  EXPECT_NE(reason_with(same, "f16", 64, 64, 64, 32).find("no listed granularity"), std::string::npos);
  EXPECT_NE(reason_with([](vk::DeviceInfo& x) { x.matrix2.max_workgroup_size = 128; }, "f16", 256, 128, 128, 32)
                .find("at most 128"),
            std::string::npos);
  EXPECT_NE(reason_with(
                [](vk::DeviceInfo& x) {
                  for (auto& s : x.matrix2.shapes) s.k_granularity = 64;
                },
                "f16", 128, 64, 64, 32)
                .find("64x64x32"),
            std::string::npos);
  EXPECT_NE(
      reason_with([](vk::DeviceInfo& x) { x.matrix2.max_dimension = 128; }, "f16", 256, 256, 64, 32).find("exceeds"),
      std::string::npos);
}

TEST(Coopmat2Family, SweepsListedShapesAndRanksLargeTilesFirst) {
  GemmProblem p;
  p.shape = {4096, 4096, 4096, 1};
  p.dtype = DType::f16;
  EXPECT_FALSE(
      build_search_space({&family_named("coopmat2")}, p, matrix_device()).not_applicable.empty());  // no coopmat2
  SearchSpace s = build_search_space({&family_named("coopmat2")}, p, matrix2_device());
  order_for_screening(s.candidates, p);
  ASSERT_TRUE(s.not_applicable.empty());
  ASSERT_FALSE(s.candidates.empty());
  for (const Candidate& c : s.candidates) {
    EXPECT_LE(uint64_t(c.config.get("bm")) * c.config.get("bn") / c.config.get("wg"), 128u) << c.name;
  }
  EXPECT_EQ(s.candidates.front().name, "coopmat2_f16_wg128_bm128_bn128_bk64_splits1");
  // Few tiles: 64x64 with the fewest splits that fill the device come first.
  p.shape = {128, 768, 768, 1};
  s = build_search_space({&family_named("coopmat2")}, p, matrix2_device());
  order_for_screening(s.candidates, p);
  ASSERT_FALSE(s.candidates.empty());
  EXPECT_EQ(s.candidates.front().name, "coopmat2_f16_wg128_bm64_bn64_bk64_splits4");
}

TEST(CoopmatFamily, SweepsTheDocumentedTilesWithinTheSharedMemoryLimit) {
  GemmProblem p;
  p.shape = {1024, 768, 3072, 1};
  p.dtype = DType::bf16;
  SearchSpace s = build_search_space({&family_named("coopmat")}, p, matrix_device());
  ASSERT_TRUE(s.not_applicable.empty());
  std::set<std::string> tiles;
  for (const Candidate& c : s.candidates) {
    tiles.insert(std::to_string(c.config.get("bm")) + "x" + std::to_string(c.config.get("bn")));
    EXPECT_LE(family_named("coopmat").shared_bytes(c.config, p.dtype), 49152u) << c.name;
    const uint32_t invocations = c.family->workgroup_size(c.config);
    EXPECT_TRUE(invocations == 128 || invocations == 256 || invocations == 512) << c.name;
  }
  // Sides of 64, 96, 128, 192 and 256, up to 256 x 128's area.
  EXPECT_EQ(tiles, (std::set<std::string>{"64x64",   "64x96",  "64x128", "64x192",  "64x256", "96x64",   "96x96",
                                          "96x128",  "96x192", "96x256", "128x64",  "128x96", "128x128", "128x192",
                                          "128x256", "192x64", "192x96", "192x128", "256x64", "256x96",  "256x128"}));
  p.mode = Mode::deterministic;
  s = build_search_space({&family_named("coopmat")}, p, matrix_device());
  ASSERT_EQ(s.not_applicable.size(), 1u);
  EXPECT_NE(s.not_applicable[0].reason.find("fast mode only"), std::string::npos);
}

TEST(CoopmatFamily, IntegerConfigsStepKBy32NeverSplitAndSizeTheirByteTiles) {
  GemmProblem p;
  p.shape = {1024, 768, 3072, 1};
  p.dtype = DType::i8;
  SearchSpace s = build_search_space({&family_named("coopmat")}, p, matrix_device());
  ASSERT_TRUE(s.not_applicable.empty());
  ASSERT_FALSE(s.candidates.empty());
  std::set<uint32_t> bks;
  for (const Candidate& c : s.candidates) {
    bks.insert(c.config.get("bk"));
    EXPECT_EQ(c.config.get("splits"), 1u) << c.name;
    EXPECT_LE(family_named("coopmat").shared_bytes(c.config, p.dtype), 49152u) << c.name;
  }
  EXPECT_EQ(bks, (std::set<uint32_t>{32, 64, 128}));
  std::set<std::string> codes;
  for (const PrunedConfig& pc : s.pruned) codes.insert(pc.code);
  EXPECT_TRUE(codes.count("integer"));
  // One byte an element: a 256x128 tile with BK 64 fits 48 KiB for i8 (43008 B) but not for f16 (67584 B).
  auto has = [](const SearchSpace& space, const std::string& name) {
    return std::any_of(space.candidates.begin(), space.candidates.end(),
                       [&](const Candidate& c) { return c.name == name; });
  };
  EXPECT_TRUE(has(s, "coopmat_i8_bm256_bn128_bk64_sgm2_sgn4_splits1"));
  // 128 x 128 at BK 128 fits single-buffered for i8 (46080 B with the output staging), not double-buffered.
  EXPECT_TRUE(has(s, "coopmat_i8_bm128_bn128_bk128_sgm2_sgn2_splits1"));
  EXPECT_FALSE(has(s, "coopmat_i8_bm128_bn128_bk128_sgm2_sgn2_splits1_stages2"));
  // Screening steps k by 128 bytes a row first: BK 128 for 8-bit inputs (4096^3 i8 nt 262 against 307 us at BK 64
  // on the H200, issue 21 step 16).
  GemmProblem big = p;
  big.shape = {4096, 4096, 4096, 1};
  big.layout = Layout{false, true};
  SearchSpace big_space = build_search_space({&family_named("coopmat")}, big, matrix_device());
  order_for_screening(big_space.candidates, big);
  ASSERT_FALSE(big_space.candidates.empty());
  EXPECT_EQ(big_space.candidates.front().name, "coopmat_i8_bm128_bn128_bk128_sgm2_sgn2_splits1");
  p.dtype = DType::f16;
  EXPECT_FALSE(has(build_search_space({&family_named("coopmat")}, p, matrix_device()),
                   "coopmat_f16_bm256_bn128_bk64_sgm2_sgn4_splits1"));
  // Integer sums are exact in any order: deterministic mode keeps the integer kernel.
  p.dtype = DType::u8;
  p.mode = Mode::deterministic;
  EXPECT_TRUE(build_search_space({&family_named("coopmat")}, p, matrix_device()).not_applicable.empty());
  p.dtype = DType::u8i8;
  s = build_search_space({&family_named("coopmat")}, p, matrix_device());
  ASSERT_EQ(s.not_applicable.size(), 1u);
  EXPECT_NE(s.not_applicable[0].reason.find("u8 x i8"), std::string::npos);
}

TEST(SearchSpace, CoopmatTilesFollowWholeWavesWhereTheComputeUnitsAreKnown) {
  GemmProblem p;
  p.dtype = DType::f16;
  p.layout = Layout{false, true};
  p.shape = {1500, 3072, 768, 1};
  // 128 x 128: 12 x 24 = 288 tiles, 3 waves on 132 units; 192 x 96: 8 x 32 = 256 tiles, 2 waves of 1.5x the
  // area and 1 + 64/192 + 64/96 staging; split 2: the reduce pass's 3 planes of 4-byte sums and its dispatch.
  EXPECT_DOUBLE_EQ(tile_wave_time(128, 128, 1, p, 132), 3.0 * 128 * 128 * 768 * 2.0);
  EXPECT_DOUBLE_EQ(tile_wave_time(192, 96, 1, p, 132), 2.0 * 192 * 96 * 768 * 2.0);
  EXPECT_DOUBLE_EQ(tile_wave_time(192, 96, 2, p, 132),
                   4.0 * 192 * 96 * 384 * 2.0 + 4.0 * 1500 * 3072 * 3 / 132 * 90.0 + 4.0e6);
  vk::DeviceInfo d = matrix_device();
  d.compute_units = 132;
  // The H200's fastest tiles on these shapes (notes, issue 43 step 2) come first: 192 x 96 or 96 x 192 at
  // 1500x3072x768, 192 x 128 at 3000x1000x2000; 128 x 128 where its grid is one wave (2048x1024x4096).
  auto first_tile = [&](const GemmProblem& problem) {
    SearchSpace s = build_search_space({&family_named("coopmat")}, problem, d);
    order_for_screening(s.candidates, problem, d);
    const Config& c = s.candidates.front().config;
    return std::to_string(c.get("bm")) + "x" + std::to_string(c.get("bn")) + "/" + std::to_string(c.get("splits"));
  };
  const std::string whisper = first_tile(p);
  EXPECT_TRUE(whisper == "192x96/1" || whisper == "96x192/1") << whisper;
  p.shape = {3000, 1000, 2000, 1};
  EXPECT_EQ(first_tile(p), "192x128/1");
  p.shape = {2048, 1024, 4096, 1};
  EXPECT_EQ(first_tile(p), "128x128/1");
  // The first picks' subgroups hold at most 18 fragments of sums: 128 x 192 with 2 x 2 subgroups (24) ran 1494 us
  // at 2048x14336x4096 on the H200, where the waves alone put it first; 128 x 128 (16) ran 894.
  p.shape = {2048, 14336, 4096, 1};
  SearchSpace large = build_search_space({&family_named("coopmat")}, p, d);
  order_for_screening(large.candidates, p, d);
  for (size_t i = 0; i < 3; ++i) {
    const Config& c = large.candidates[i].config;
    EXPECT_LE((c.get("bm") / c.get("sgm") / 16) * (c.get("bn") / c.get("sgn") / 16), 18u) << large.candidates[i].name;
  }
  // Subgroups by the work a unit has: 4 x 4 first where it is short (768x2304x768: 108 tiles of 128 x 128 on 132
  // units, 12 steps of 64 k; every ground truth of the search benchmark), 2 x 2 where it is long (4096^3: 1024 tiles,
  // 64 steps; 2048^3: 256 tiles, 32 steps, 62 steps a unit).
  auto first_subgroups = [&](Shape shape) {
    p.shape = shape;
    SearchSpace s = build_search_space({&family_named("coopmat")}, p, d);
    order_for_screening(s.candidates, p, d);
    const Config& c = s.candidates.front().config;
    return std::to_string(c.get("sgm")) + "x" + std::to_string(c.get("sgn"));
  };
  EXPECT_EQ(first_subgroups({768, 2304, 768, 1}), "4x4");
  EXPECT_EQ(first_subgroups({512, 512, 128, 32}), "4x4");
  EXPECT_EQ(first_subgroups({4096, 4096, 4096, 1}), "2x2");
  EXPECT_EQ(first_subgroups({2048, 2048, 2048, 1}), "2x2");
  // Without the count the order is the device-free one (128 x 128 tiles first on a large grid, 2 x 2 subgroups).
  d.compute_units = 0;
  p.shape = {1500, 3072, 768, 1};
  EXPECT_EQ(first_tile(p), "128x128/1");
  EXPECT_EQ(first_subgroups({768, 2304, 768, 1}), "2x2");
}
