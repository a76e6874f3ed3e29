#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "core/error.hpp"
#include "kernels/matrix_requirements.hpp"
#include "kernels/registry.hpp"
#include "kernels/spirv.hpp"
#include "kernels/space_file.hpp"
#include "tuner/space.hpp"

#include "space_devices.hpp"

using namespace gemmtune;

TEST(TiledFamily, DeclaresTheDocumentedSpace) {
  const KernelFamily& f = family_named("tiled");
  // "prepass" (0, 1) for weights in blocks
  EXPECT_EQ(f.all_configs().size(), 3u * 3 * 3 * 4 * 4 * 2);
  Config c{{{"bm", 64}, {"bn", 128}, {"bk", 16}, {"tm", 4}, {"tn", 8}}};
  EXPECT_EQ(f.workgroup_size(c), 16u * 16);
  EXPECT_EQ(f.shared_bytes(c, DType::f32), 16u * (64 + 128) * 4);  // two unpadded k-major tiles
  EXPECT_EQ(f.config_name(c, DType::bf16), "tiled_bf16_bm64_bn128_bk16_tm4_tn8");
  GemmProblem gp;
  gp.shape = Shape{100, 300, 7, 5};
  auto grid = f.grid(c, gp);
  EXPECT_EQ(grid[0], 3u);
  EXPECT_EQ(grid[1], 2u);
  EXPECT_EQ(grid[2], 5u);
}

TEST(KernelHash, CoversEveryModuleAConfigMayDispatch) {
  // The main pass, the split-k reduce pass where a family splits k through it (splitk, coopmat, rowmma), and
  // the unfused epilogue pass; not the reduce pass where the family finishes split-k itself (fewrows, rowdot).
  const DType f16 = DType::f16;
  EXPECT_EQ(family_named("tiled").kernel_hash(f16), modules_hash({family_named("tiled").spirv(f16), epilogue_spirv()}));
  EXPECT_EQ(family_named("splitk").kernel_hash(f16),
            modules_hash({family_named("splitk").spirv(f16), splitk_reduce_spirv(f16), epilogue_spirv()}));
  EXPECT_EQ(family_named("rowmma").kernel_hash(f16),
            modules_hash({spirv_module("rowmma", f16), splitk_reduce_spirv(f16), epilogue_spirv()}));
  EXPECT_EQ(family_named("fewrows").kernel_hash(f16),
            modules_hash({family_named("fewrows").spirv(f16), epilogue_spirv()}));
  EXPECT_EQ(family_named("rowdot").kernel_hash(f16),
            modules_hash({family_named("rowdot").spirv(f16), epilogue_spirv()}));
  // Integer tiled: its packed-dot-product alternative too.
  EXPECT_EQ(family_named("tiled").kernel_hash(DType::i8),
            modules_hash({family_named("tiled").spirv(DType::i8), family_named("tiled").alternative_spirv(DType::i8),
                          epilogue_spirv()}));
  // Any module's bytes change the hash, and the order counts.
  EXPECT_NE(modules_hash({family_named("tiled").spirv(f16), epilogue_spirv()}),
            modules_hash({epilogue_spirv(), family_named("tiled").spirv(f16)}));
  EXPECT_NE(family_named("splitk").kernel_hash(f16),
            modules_hash({family_named("splitk").spirv(f16), epilogue_spirv()}));
}

TEST(KernelFamily, ItsSplitFlagsAgreeWithEveryConfigsDispatchRule) {
  // modules() and the device-scope constraint read the family's flags; the runner and kits plan by each config's rule.
  for (const KernelFamily* f : kernel_families()) {
    ASSERT_TRUE(f->dispatch_rule) << f->name;
    bool one_pass = false, reduce_pass = false;
    for (const Config& c : f->all_configs()) {
      const rules::DispatchRule rule = f->dispatch_rule(c, DType::f32);
      EXPECT_EQ(rule.splits, f->splits(c)) << f->config_name(c, DType::f32);
      if (rule.splits > 1) (rule.one_pass_split ? one_pass : reduce_pass) = true;
    }
    EXPECT_EQ(f->one_pass_split, one_pass) << f->name;
    EXPECT_EQ(!f->one_pass_split || f->reduce_pass_too, reduce_pass || !one_pass) << f->name;
  }
}

TEST(SearchSpace, PrunesAgainstDeviceLimitsAndKeepsReasons) {
  GemmProblem p;
  p.shape = {1024, 768, 3072, 1};
  SearchSpace roomy = build_search_space({&family_named("tiled")}, p, fake_device(65536, 1 << 20));
  EXPECT_EQ(roomy.candidates.size(), 432u);
  EXPECT_TRUE(roomy.pruned.empty());

  SearchSpace tight = build_search_space({&family_named("tiled")}, p, fake_device(16384, 256));
  EXPECT_EQ(tight.candidates.size() + tight.pruned.size(), 432u);
  std::set<std::string> codes;
  for (const PrunedConfig& pc : tight.pruned) {
    codes.insert(pc.code);
    EXPECT_FALSE(pc.reason.empty());
  }
  EXPECT_TRUE(codes.count("invocations"));
  EXPECT_TRUE(codes.count("shared_memory"));
  for (const Candidate& c : tight.candidates) {
    EXPECT_LE(c.family->workgroup_size(c.config), 256u) << c.name;
    EXPECT_LE(c.family->shared_bytes(c.config, p.dtype), 16384u) << c.name;
  }
}

TEST(SearchSpace, LargeGridsAreSplitNotPruned) {
  GemmProblem p;
  p.shape = {100000, 64, 64, 1};
  SearchSpace s = build_search_space({&family_named("tiled")}, p, fake_device(65536, 1 << 20, 1000));
  EXPECT_EQ(s.candidates.size(), 432u);
}

TEST(SearchSpace, FewRowsSizesItsSliceSumsByTheRowsOfTheProblem) {
  // The few-rows kernel keeps M x VEC slice sums per invocation in shared memory (M a specialization
  // constant), so at M = 1 configs fit that 8 rows would not: 32 x 32 invocations x 8 columns x 4 bytes = 32 KiB.
  GemmProblem p;
  p.shape = {1, 51865, 768, 1};
  p.dtype = DType::f16;
  const vk::DeviceInfo device = fake_device(49152, 1024);
  const SearchSpace one = build_search_space({&family_named("fewrows")}, p, device);
  p.shape.m = 8;
  const SearchSpace eight = build_search_space({&family_named("fewrows")}, p, device);
  EXPECT_GT(one.candidates.size(), eight.candidates.size());
  const std::string name = "fewrows_f16_cols32_slices32_unroll1_vec8";
  auto named = [&](const Candidate& c) { return c.name == name; };
  EXPECT_TRUE(std::any_of(one.candidates.begin(), one.candidates.end(), named));
  EXPECT_FALSE(std::any_of(eight.candidates.begin(), eight.candidates.end(), named));
  bool pruned_for_shared = false;
  for (const PrunedConfig& pc : eight.pruned) pruned_for_shared |= pc.name == name && pc.code == "shared_memory";
  EXPECT_TRUE(pruned_for_shared);
  // The integer kernel meets its sums 8 rows a pass whatever M is: M = 1 prunes as M = 8 does.
  p.dtype = DType::i8;
  const SearchSpace int_eight = build_search_space({&family_named("fewrows")}, p, device);
  p.shape.m = 1;
  const SearchSpace int_one = build_search_space({&family_named("fewrows")}, p, device);
  EXPECT_EQ(int_one.candidates.size(), int_eight.candidates.size());
}

TEST(SearchSpace, FewRowsReadsUnalignedRowsInUnitsWhoseShiftEachSliceKeeps) {
  // N = 51865 (odd): rows of B start at every 2-byte position, read in aligned 8- or 16-byte units. A slice reads
  // rows k = s, s + SLICES, ...: its shift stays put only when SLICES x ldb is a multiple of the unit.
  GemmProblem p;
  p.shape = {1, 51865, 768, 1};
  p.dtype = DType::f16;
  const SearchSpace s = build_search_space({&family_named("fewrows")}, p, fake_device(65536, 1024));
  auto kept = [&](const std::string& name) {
    return std::any_of(s.candidates.begin(), s.candidates.end(), [&](const Candidate& c) { return c.name == name; });
  };
  auto pruned_code = [&](const std::string& name) {
    for (const PrunedConfig& pc : s.pruned)
      if (pc.name == name) return pc.code;
    return std::string();
  };
  EXPECT_EQ(pruned_code("fewrows_f16_cols32_slices4_unroll1_vec8"), "unit_shift");  // 4 x 51865 = 4 mod 8
  EXPECT_TRUE(kept("fewrows_f16_cols32_slices8_unroll1_vec8"));
  EXPECT_TRUE(kept("fewrows_f16_cols32_slices4_unroll1_vec4"));  // 4-element units
  // A workgroup owns COLS x VEC - (UNIT - 1) columns: 256 - 7 = 249 here, 51865 / 249 -> 209 workgroups.
  Config c{{{"cols", 32}, {"slices", 8}, {"unroll", 1}, {"vec", 8}, {"splits", 1}}};
  EXPECT_EQ(family_named("fewrows").grid(c, p)[0], 209u);
  p.shape.n = 51864;  // aligned rows: whole 16-byte groups, 256 columns a workgroup
  EXPECT_EQ(family_named("fewrows").grid(c, p)[0], 203u);
}

TEST(KernelFamily, EveryFamilyHasItsOwnReportColour) {
  // The report asks each family for its colour (src/cli/report_command.cpp): one each, "#rrggbb", none shared.
  std::vector<const KernelFamily*> families = kernel_families();
  families.push_back(&family_named("naive"));
  std::set<std::string> seen;
  for (const KernelFamily* f : families) {
    EXPECT_EQ(f->color.size(), 7u) << f->name;
    EXPECT_EQ(f->color.find_first_not_of("#0123456789abcdef"), std::string::npos) << f->name << " " << f->color;
    EXPECT_TRUE(seen.insert(f->color).second) << f->name << " shares " << f->color;
  }
}

TEST(KernelFamily, SplitsAddedLaterKeepTheOlderNamesAtOneRange) {
  // fewrows, rowdot and rowmma gained "splits" after tables named their configs: one range is left out of the
  // name (unnamed_value), other counts are named; the full name lists every parameter.
  Config c{{{"cols", 32}, {"slices", 8}, {"unroll", 1}, {"vec", 8}, {"splits", 1}}};
  EXPECT_EQ(family_named("fewrows").config_name(c, DType::f16), "fewrows_f16_cols32_slices8_unroll1_vec8");
  EXPECT_EQ(family_named("fewrows").full_config_name(c, DType::f16), "fewrows_f16_cols32_slices8_unroll1_vec8_splits1");
  c.values.back().second = 4;
  EXPECT_EQ(family_named("fewrows").config_name(c, DType::f16), "fewrows_f16_cols32_slices8_unroll1_vec8_splits4");
  for (const KernelFamily* f : {&family_named("fewrows"), &family_named("rowdot"), &family_named("rowmma")}) {
    ASSERT_EQ(f->params.back().name, "splits") << f->name;
    EXPECT_EQ(f->params.back().unnamed_value, 1u) << f->name;
  }
}

TEST(SearchSpace, FewRowsSplitsKWithOneArrivalCounterATile) {
  // Workgroup x covers tile x / SPLITS over k range x % SPLITS; each tile of each product has one counter.
  GemmProblem p;
  p.shape = {1, 51865, 768, 3};
  p.dtype = DType::f16;
  Config c{{{"cols", 32}, {"slices", 8}, {"unroll", 1}, {"vec", 8}, {"splits", 4}}};
  EXPECT_EQ(family_named("fewrows").grid(c, p)[0], 209u * 4);
  EXPECT_EQ(family_named("fewrows").splits(c), 4u);
  EXPECT_EQ(family_named("fewrows").arrival_counters(c, p), 209u * 3);
  vk::DeviceInfo d = fake_device(65536, 1024);
  auto pruned_code = [&](const GemmProblem& problem, const vk::DeviceInfo& device, const std::string& name) {
    const SearchSpace s = build_search_space({&family_named("fewrows")}, problem, device);
    for (const PrunedConfig& pc : s.pruned)
      if (pc.name == name) return pc.code;
    return std::string();
  };
  EXPECT_EQ(pruned_code(p, d, "fewrows_f16_cols32_slices8_unroll1_vec8_splits4"), "");
  // The memory model without device scope forbids the device-scope count.
  d.matrix.memory_model = true;
  EXPECT_EQ(pruned_code(p, d, "fewrows_f16_cols32_slices8_unroll1_vec8_splits4"), "device_scope");
  d.matrix.memory_model_device_scope = true;
  EXPECT_EQ(pruned_code(p, d, "fewrows_f16_cols32_slices8_unroll1_vec8_splits4"), "");
  // The integer kernel has no split-k.
  p.dtype = DType::i8;
  p.shape.m = 4;
  EXPECT_EQ(pruned_code(p, d, "fewrows_i8_cols32_slices8_unroll1_vec8_splits2"), "integer_splits");
}

TEST(SearchSpace, ReportsVariantsThatCannotServeTheProblem) {
  GemmProblem p;
  p.shape = {16, 64, 100, 1};
  SearchSpace s = build_search_space(kernel_families(), p, fake_device(65536, 1024));
  ASSERT_EQ(s.not_applicable.size(), 10u);
  EXPECT_EQ(s.not_applicable[7].variant, "qrowdot");
  EXPECT_NE(s.not_applicable[7].reason.find("block-quantized B only"), std::string::npos);
  EXPECT_EQ(s.not_applicable[8].variant, "qrowdp");
  EXPECT_NE(s.not_applicable[8].reason.find("block-quantized B only"), std::string::npos);
  EXPECT_EQ(s.not_applicable[9].variant, "qrowmma");
  EXPECT_NE(s.not_applicable[9].reason.find("block-quantized B only"), std::string::npos);
  EXPECT_EQ(s.not_applicable[6].variant, "bf16x6");
  EXPECT_NE(s.not_applicable[6].reason.find("VK_KHR_cooperative_matrix"), std::string::npos);
  EXPECT_EQ(s.not_applicable[2].variant, "rowdot");
  EXPECT_NE(s.not_applicable[2].reason.find("B stored K x N"), std::string::npos);
  EXPECT_EQ(s.not_applicable[3].variant, "rowmma");
  EXPECT_NE(s.not_applicable[3].reason.find("f16 and bf16 inputs only"), std::string::npos);
  EXPECT_EQ(s.not_applicable[4].variant, "coopmat");
  EXPECT_NE(s.not_applicable[4].reason.find("f32 inputs"), std::string::npos);
  EXPECT_EQ(s.not_applicable[5].variant, "coopmat2");
  EXPECT_NE(s.not_applicable[5].reason.find("f32 inputs"), std::string::npos);
  EXPECT_EQ(s.not_applicable[0].variant, "splitk");
  EXPECT_NE(s.not_applicable[0].reason.find("K = 100"), std::string::npos);
  EXPECT_EQ(s.not_applicable[1].variant, "fewrows");
  EXPECT_NE(s.not_applicable[1].reason.find("M = 16"), std::string::npos);
  p.shape = {4, 64, 100, 1};
  p.layout.trans_a = true;  // op(A) transposed: few-rows reads it where it is (it is small)
  s = build_search_space({&family_named("fewrows")}, p, fake_device(65536, 1024));
  EXPECT_TRUE(s.not_applicable.empty());
  p.layout.trans_b = true;  // B stored N x K: rowdot's
  s = build_search_space({&family_named("fewrows")}, p, fake_device(65536, 1024));
  ASSERT_EQ(s.not_applicable.size(), 1u);
  EXPECT_NE(s.not_applicable[0].reason.find("B stored N x K"), std::string::npos);
}

TEST(SearchSpace, SplitKRangesAreMultiplesOf32WithAtLeast64Terms) {
  EXPECT_EQ(split_range_terms(3072, 16), 192u);
  EXPECT_EQ(split_range_terms(1000, 3), 352u);
  GemmProblem p;
  p.shape = {128, 768, 200, 1};  // S = 2: ranges of 128 and 72 terms; S = 3: 96, 96, 8 (pruned)
  SearchSpace s = build_search_space({&family_named("splitk")}, p, fake_device(65536, 1024));
  std::set<uint32_t> kept, pruned;
  for (const Candidate& c : s.candidates) kept.insert(c.config.get("splits"));
  for (const PrunedConfig& pc : s.pruned) {
    if (pc.code == "k_ranges") pruned.insert(uint32_t(std::stoul(pc.name.substr(pc.name.rfind("splits") + 6))));
  }
  EXPECT_EQ(kept, (std::set<uint32_t>{2}));
  EXPECT_TRUE(pruned.count(3));
  EXPECT_TRUE(pruned.count(16));
}

TEST(SearchSpace, DeterministicModeNeedsBkMultipleOf16) {
  GemmProblem p;
  p.shape = {64, 64, 64, 1};
  p.mode = Mode::deterministic;
  SearchSpace s = build_search_space({&family_named("tiled")}, p, fake_device(65536, 1 << 20));
  for (const Candidate& c : s.candidates) EXPECT_NE(c.config.get("bk"), 8u) << c.name;
  EXPECT_EQ(s.candidates.size(), 432u * 2 / 3);
}

TEST(SearchSpace, ScreeningOrderIsDeterministicAndPrefersMidSizedWorkgroups) {
  GemmProblem p;
  p.shape = {256, 256, 256, 1};
  p.dtype = DType::f16;
  SearchSpace a = build_search_space({&family_named("tiled")}, p, fake_device(32768, 1024));
  SearchSpace b = a;
  order_for_screening(a.candidates, p);
  order_for_screening(b.candidates, p);
  ASSERT_EQ(a.candidates.size(), b.candidates.size());
  for (size_t i = 0; i < a.candidates.size(); ++i) EXPECT_EQ(a.candidates[i].name, b.candidates[i].name);
  uint32_t wg = a.candidates.front().family->workgroup_size(a.candidates.front().config);
  EXPECT_GE(wg, 64u);
  EXPECT_LE(wg, 256u);
}

TEST(SearchSpace, CoopmatIsScreenedEarlyAndMostlyWhereItApplies) {
  GemmProblem p;
  p.shape = {4096, 4096, 4096, 1};
  p.dtype = DType::f16;
  SearchSpace s = build_search_space(kernel_families(), p, matrix_device());
  order_for_screening(s.candidates, p);
  ASSERT_GE(s.candidates.size(), 16u);
  // Round-robin with weights, the heavier family first in each round: three coopmat configs, then tiled and
  // splitk (fewrows cannot serve M = 4096). A budget that covers one batch of 8 builds measures coopmat.
  std::vector<std::string> first;
  for (size_t i = 0; i < 10; ++i) first.push_back(s.candidates[i].family->name);
  EXPECT_EQ(first, (std::vector<std::string>{"coopmat", "coopmat", "coopmat", "tiled", "splitk", "coopmat", "coopmat",
                                             "coopmat", "tiled", "splitk"}));
  // The first coopmat config is the H200's winner at 4096^3 (issue 21 step 5): 128x128, BK 64 single-buffered
  // (two BK 64 buffers do not fit in 48 KiB), 4 subgroups, no split; then BK 32 double-buffered.
  // Single-buffered configs keep the names they had before `stages` existed (unnamed_value 1).
  EXPECT_EQ(s.candidates[0].name, "coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits1");
  EXPECT_EQ(s.candidates[1].name, "coopmat_f16_bm128_bn128_bk32_sgm2_sgn2_splits1_stages2");
  // With coopmat2 too: one of its configs a round (it won no entry of the H200's models table), with the other
  // one-a-round families in declaration order after coopmat's three.
  SearchSpace both = build_search_space(kernel_families(), p, matrix2_device());
  order_for_screening(both.candidates, p);
  ASSERT_GE(both.candidates.size(), 8u);
  first.clear();
  for (size_t i = 0; i < 8; ++i) first.push_back(both.candidates[i].family->name);
  EXPECT_EQ(first, (std::vector<std::string>{"coopmat", "coopmat", "coopmat", "tiled", "splitk", "coopmat2", "coopmat",
                                             "coopmat"}));

  // Few tiles (128x768x768: 6 tiles of 128x128): 64x64 tiles with just enough splits come first.
  p.shape = {128, 768, 768, 1};
  SearchSpace small = build_search_space({&family_named("coopmat")}, p, matrix_device());
  order_for_screening(small.candidates, p);
  ASSERT_FALSE(small.candidates.empty());
  EXPECT_EQ(small.candidates.front().name, "coopmat_f16_bm64_bn64_bk64_sgm2_sgn2_splits4_stages2");

  // 128 tiles of 128x128 (512x4096x14336, a linear layer at M = 512) half fill a large GPU's 256 slots: two k ranges
  // first (1.21x faster on the H200, issue 21 step 6), then the unsplit tile.
  p.shape = {512, 4096, 14336, 1};
  p.layout = Layout{false, true};
  SearchSpace mid = build_search_space({&family_named("coopmat")}, p, matrix_device());
  order_for_screening(mid.candidates, p);
  ASSERT_GE(mid.candidates.size(), 2u);
  EXPECT_EQ(mid.candidates[0].name, "coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits2");
  EXPECT_EQ(mid.candidates[1].name, "coopmat_f16_bm128_bn128_bk64_sgm2_sgn2_splits1");
}

TEST(SearchSpace, WarptileScreensSmallGridsWithSmallTilesSplitToFillTheDevice) {
  // The H200's fastest in each regime (issue 22 steps 5-6 and probe C) come first. The device has the memory model
  // without device scope: one-pass splits are pruned, the reduce pass's are not.
  auto first = [](Shape shape) {
    GemmProblem p;
    p.shape = shape;
    SearchSpace s = build_search_space({find_family("warptile")}, p, matrix_device());
    for (const Candidate& c : s.candidates)
      EXPECT_FALSE(c.config.get("splits") > 1 && c.config.get("reduce") == 0) << c.name;
    order_for_screening(s.candidates, p);
    return s.candidates.empty() ? std::string() : s.candidates.front().name;
  };
  // 1024 tiles of 128 x 128: that tile, 8 x 8 a lane, unsplit, in nn with the fragments read a k row ahead (step 17).
  EXPECT_EQ(first({4096, 4096, 4096, 1}), "warptile_f32_bm128_bn128_bk8_wm32_wn64_tm8_tn8_splits1_ahead1");
  // 128 such tiles (512x4096x14336) still fill the device.
  EXPECT_EQ(first({512, 4096, 14336, 1}), "warptile_f32_bm128_bn128_bk8_wm32_wn64_tm8_tn8_splits1_ahead1");
  // 48 (1024x768x3072): 192 tiles of 64 x 64 in 2 ranges (384 workgroups).
  EXPECT_EQ(first({1024, 768, 3072, 1}), "warptile_f32_bm64_bn64_bk8_wm32_wn32_tm8_tn4_splits2_reduce1");
  // 6 (128x768x3072): 24 tiles in 16 ranges. At K = 768 16 ranges would be under 64 terms: 48 tiles of 32 x 64 in 8
  // (probe F).
  EXPECT_EQ(first({128, 768, 3072, 1}), "warptile_f32_bm64_bn64_bk8_wm32_wn32_tm8_tn4_splits16_reduce1");
  EXPECT_EQ(first({128, 768, 768, 1}), "warptile_f32_bm32_bn64_bk8_wm32_wn32_tm8_tn4_splits8_reduce1");
  // 192 with a short k loop (1024x3072x768): 64 x 128 tiles of 8 x 4 lanes, unsplit (probe D); 256 (2048^3) is large.
  EXPECT_EQ(first({1024, 3072, 768, 1}), "warptile_f32_bm64_bn128_bk8_wm32_wn32_tm8_tn4_splits1");
  EXPECT_EQ(first({2048, 2048, 2048, 1}), "warptile_f32_bm128_bn128_bk8_wm32_wn64_tm8_tn8_splits1_ahead1");
  // A stored M x K and B stored N x K (a linear layer, nt): the fragments row by row (2048^3 nt 431 against 466 us
  // ahead, step 17); tn and tt read them ahead, as nn does (420.8 against 424.9 us, 440.8 against 452.0).
  auto first_in = [](Layout layout) {
    GemmProblem p;
    p.shape = {2048, 2048, 2048, 1};
    p.layout = layout;
    SearchSpace s = build_search_space({find_family("warptile")}, p, matrix_device());
    order_for_screening(s.candidates, p);
    return s.candidates.empty() ? std::string() : s.candidates.front().name;
  };
  EXPECT_EQ(first_in(Layout{false, true}), "warptile_f32_bm128_bn128_bk8_wm32_wn64_tm8_tn8_splits1");
  EXPECT_EQ(first_in(Layout{true, false}), "warptile_f32_bm128_bn128_bk8_wm32_wn64_tm8_tn8_splits1_ahead1");
  EXPECT_EQ(first_in(Layout{true, true}), "warptile_f32_bm128_bn128_bk8_wm32_wn64_tm8_tn8_splits1_ahead1");
}

TEST(SearchSpace, WarptileSweepsTilesOfSixteenRowsForDecodeSizedMOnly) {
  // 16-row tiles: in the space at M <= 16, pruned with the reason above it (they would read B once every 16 rows), and
  // at M <= 16 ranked by the rows that hold outputs, so they open the screening there (32-row tiles multiply zeros
  // in half their rows: 52.3 against 43.9 us at 16x4096x4096 tt on an H100, notes, issue 43 step 47).
  auto space = [](uint64_t m) {
    GemmProblem p;
    p.shape = {m, 4096, 4096, 1};
    p.layout = Layout{true, true};
    return build_search_space({find_family("warptile")}, p, matrix_device());
  };
  auto rows16 = [](const SearchSpace& s) {
    size_t n = 0;
    for (const Candidate& c : s.candidates) n += c.config.get("bm") == 16;
    return n;
  };
  SearchSpace decode = space(16);
  EXPECT_GT(rows16(decode), 0u);
  GemmProblem p16;
  p16.shape = {16, 4096, 4096, 1};
  p16.layout = Layout{true, true};
  order_for_screening(decode.candidates, p16);
  EXPECT_EQ(decode.candidates.front().name, "warptile_f32_bm16_bn128_bk8_wm16_wn32_tm4_tn4_splits16_reduce1");
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(decode.candidates[i].config.get("bm"), 16u) << decode.candidates[i].name;
  const SearchSpace wider = space(17);
  EXPECT_EQ(rows16(wider), 0u);
  bool reason = false;
  for (const PrunedConfig& pr : wider.pruned)
    reason |= pr.code == "rows" && pr.reason == "tiles of 16 rows serve M <= 16 only (M = 17)";
  EXPECT_TRUE(reason);
}

TEST(SearchSpace, WarptileSweepsKSlicesForLongKOnSmallGridsOnly) {
  // Two k slices: swept where K >= 768 on 512 or fewer 64 x 64 tiles, one tile a workgroup, split only through the
  // reduce pass, after the same tile in one slice; twice the invocations, the second slice's sums in shared memory.
  const KernelFamily& f = family_named("warptile");
  auto space = [&](Shape shape) {
    GemmProblem p;
    p.shape = shape;
    p.layout = Layout{false, true};
    SearchSpace s = build_search_space({&f}, p, matrix_device());
    order_for_screening(s.candidates, p);
    return s;
  };
  auto sliced = [](const SearchSpace& s) {
    size_t n = 0;
    for (const Candidate& c : s.candidates) {
      if (c.config.get("kslices") == 1) continue;
      ++n;
      EXPECT_EQ(c.config.get("tiles"), 1u) << c.name;
      EXPECT_FALSE(c.config.get("splits") > 1 && c.config.get("reduce") == 0) << c.name;
    }
    return n;
  };
  const SearchSpace whisper = space({1500, 768, 3072, 1});  // 24 x 12 tiles of 64 x 64
  EXPECT_GT(sliced(whisper), 0u);
  EXPECT_EQ(whisper.candidates.front().config.get("kslices"), 1u);
  EXPECT_EQ(sliced(space({1500, 768, 512, 1})), 0u);    // a short k loop
  EXPECT_EQ(sliced(space({2048, 2048, 4096, 1})), 0u);  // 1024 tiles
  Config c = whisper.candidates.front().config;
  const uint32_t invocations = f.workgroup_size(c);
  const uint64_t shared = f.shared_bytes(c, DType::f32);
  for (auto& [name, value] : c.values)
    if (name == "kslices") value = 2;
  EXPECT_EQ(f.workgroup_size(c), 2 * invocations);
  EXPECT_EQ(f.shared_bytes(c, DType::f32), shared + uint64_t(c.get("bm")) * c.get("bn") * 4);
}

TEST(SearchSpace, SplitkScreensTheSplitsThatFillTheDeviceFirst) {
  // The fewest splits that bring the tiles to 384 workgroups, 32 outputs a lane (8 x 4), BK 16, 8192-element tiles:
  // the search benchmark's two f32 optima (128 x 64 in 3 ranges, 32 x 128 in 4) come among the first picks.
  auto first = [](Shape shape, Layout layout, size_t count) {
    GemmProblem p;
    p.shape = shape;
    p.layout = layout;
    SearchSpace s = build_search_space({find_family("splitk")}, p, matrix_device());
    order_for_screening(s.candidates, p);
    std::vector<std::string> names;
    for (size_t i = 0; i < std::min(count, s.candidates.size()); ++i) names.push_back(s.candidates[i].name);
    return names;
  };
  auto has = [](const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  // 2000x500x3000 tn: 128 tiles of 8192 elements; 4 ranges reach 512 workgroups, 3 reach 384.
  const std::vector<std::string> wide = first({2000, 500, 3000, 1}, Layout{true, false}, 4);
  EXPECT_TRUE(has(wide, "splitk_f32_bm128_bn64_bk16_tm8_tn4_splits3")) << wide.front();
  // 333x1111x555 nn: 54 such tiles in 6 ranges first, then 4096-element tiles in 4.
  const std::vector<std::string> small = first({333, 1111, 555, 1}, Layout{false, false}, 6);
  EXPECT_TRUE(has(small, "splitk_f32_bm32_bn128_bk16_tm8_tn4_splits4")) << small.front();
  for (const std::string& name : {wide.front(), small.front()})
    EXPECT_NE(name.find("_bk16_tm8_tn4_"), std::string::npos) << name;
}

TEST(SearchSpace, QuantizedDecodingOpensEachRoundWithQrowdotThenTheMatrixUnits) {
  GemmProblem p;
  p.shape = {2, 4096, 14336, 1};
  p.dtype = DType::f32_q4_0;
  p.layout = Layout{false, true};
  vk::DeviceInfo device = matrix2_device();
  device.subgroup_shuffle = true;  // qrowdot's reduction
  const auto first_families = [&](uint64_t m) {
    p.shape.m = m;
    SearchSpace s = build_search_space(kernel_families(), p, device);
    order_for_screening(s.candidates, p);
    std::vector<std::string> first;
    std::string first_qrowmma;
    for (size_t i = 0; i < s.candidates.size(); ++i) {
      if (i < 8) first.push_back(s.candidates[i].family->name);
      if (first_qrowmma.empty() && s.candidates[i].family->name == "qrowmma") first_qrowmma = s.candidates[i].name;
    }
    return std::make_pair(first, first_qrowmma);
  };
  // At every decoding M the two families open the round with 4 configs each, qrowdot (listed first) ahead; qrowmma's
  // first config is about 256 workgroups of 16 subgroups, one block a trip.
  const std::vector<std::string> round{"qrowdot", "qrowdot", "qrowdot", "qrowdot",
                                       "qrowmma", "qrowmma", "qrowmma", "qrowmma"};
  for (uint64_t m : {1u, 2u, 8u, 16u}) {
    const auto [families, first_qrowmma] = first_families(m);
    EXPECT_EQ(families, round) << "M = " << m;
    EXPECT_EQ(first_qrowmma, "qrowmma_f32q4_sgk16_frags1_unroll1") << "M = " << m;
  }
  // qrowdot decodes in f16 pairs: a device without 16-bit arithmetic is told why, for the problem and in `devices`.
  device.matrix.shader_float16 = false;
  const KernelFamily& qrowdot = family_named("qrowdot");
  SearchSpace without = build_search_space({&qrowdot}, p, device);
  ASSERT_EQ(without.not_applicable.size(), 1u);
  EXPECT_NE(without.not_applicable[0].reason.find("shaderFloat16"), std::string::npos);
  ASSERT_TRUE(qrowdot.device_unsupported(p.dtype, device).has_value());
}

TEST(SearchSpace, PackedDotProductsOpenTheDecodingRoundForQ8FromThreeRowsAndQ4FromOneAndFollowQrowdotElsewhere) {
  GemmProblem p;
  p.shape = {8, 4096, 14336, 1};
  p.dtype = DType::f32_q8_0;
  p.layout = Layout{false, true};
  vk::DeviceInfo device = matrix2_device();
  device.subgroup_shuffle = true;
  device.matrix.integer_dot_product = true;
  const auto first = [&](DType dtype, uint64_t m) {
    p.dtype = dtype;
    p.shape.m = m;
    SearchSpace s = build_search_space(kernel_families(), p, device);
    order_for_screening(s.candidates, p);
    std::vector<std::string> out;
    for (size_t i = 0; i < 14 && i < s.candidates.size(); ++i) out.push_back(s.candidates[i].name);
    return out;
  };
  const auto families = [](const std::vector<std::string>& names) {
    std::vector<std::string> out;
    for (const std::string& n : names) out.push_back(n.substr(0, n.find('_')));
    return out;
  };
  // q8_0 from M = 3 and q4_0 from M = 1: six qrowdp configs, 4 rows a group at about 1024 workgroups and halves
  // first, then qrowdot's.
  for (const auto& [dtype, m] :
       {std::pair{DType::f32_q8_0, 3u}, std::pair{DType::f32_q8_0, 8u}, std::pair{DType::f32_q4_0, 1u},
        std::pair{DType::f16_q4_0, 1u}, std::pair{DType::f32_q4_0, 2u}, std::pair{DType::f16_q4_0, 8u}}) {
    const std::vector<std::string> names = first(dtype, m);
    const std::vector<std::string> f = families(names);
    EXPECT_EQ(std::count(f.begin(), f.begin() + 6, "qrowdp"), 6) << dtype_name(dtype) << " M = " << m;
    EXPECT_EQ(f[6], "qrowdot") << dtype_name(dtype) << " M = " << m;
    EXPECT_EQ(names.front(), "qrowdp_" + std::string(dtype_token(dtype)) + "_wg128_rows4_lanes2")
        << dtype_name(dtype) << " M = " << m;
  }
  // q8_0 below 3 rows: qrowdot and the matrix units first, two qrowdp configs a round after them.
  for (const auto& [dtype, m] : {std::pair{DType::f32_q8_0, 1u}, std::pair{DType::f16_q8_0, 2u}}) {
    const std::vector<std::string> f = families(first(dtype, m));
    const std::vector<std::string> round{"qrowdot", "qrowdot", "qrowdot", "qrowdot", "qrowmma",
                                         "qrowmma", "qrowmma", "qrowmma", "qrowdp",  "qrowdp"};
    EXPECT_EQ(std::vector<std::string>(f.begin(), f.begin() + 10), round) << dtype_name(dtype) << " M = " << m;
  }
  // Without packed integer dot products the family is left out, with the reason.
  device.matrix.integer_dot_product = false;
  p.dtype = DType::f32_q8_0;
  const SearchSpace without = build_search_space({&family_named("qrowdp")}, p, device);
  ASSERT_EQ(without.not_applicable.size(), 1u);
  EXPECT_NE(without.not_applicable[0].reason.find("shaderIntegerDotProduct"), std::string::npos);
}

TEST(SearchSpace, DecodingProblemsScreenTheFewRowsFamiliesFirstAndTallTilesLast) {
  GemmProblem p;
  p.shape = {1, 4096, 14336, 1};
  p.dtype = DType::f16;
  p.layout = Layout{false, true};  // a linear layer's weight
  // rowdot reduces with subgroup shuffles (subgroups of 8 or more): a device without them is told why.
  vk::DeviceInfo device = matrix2_device();
  SearchSpace without = build_search_space({&family_named("rowdot")}, p, device);
  ASSERT_EQ(without.not_applicable.size(), 1u);
  EXPECT_NE(without.not_applicable[0].reason.find("subgroup shuffles"), std::string::npos);
  device.subgroup_size = 32;
  device.subgroup_shuffle = true;
  SearchSpace s = build_search_space(kernel_families(), p, device);
  // B stored N x K: rowdot serves it and the float few-rows kernel refuses it.
  for (const Candidate& c : s.candidates) ASSERT_NE(c.family->name, "fewrows");
  order_for_screening(s.candidates, p);
  ASSERT_GE(s.candidates.size(), 40u);
  // rowdot and rowmma (16-bit inputs on the matrix units) open each round with 4 configs each; every other
  // family's tiles are taller than 4 x M = 4, so all of their configs come first.
  auto few = [](const Candidate& c) { return c.family->name == "rowdot" || c.family->name == "rowmma"; };
  const size_t few_rows = size_t(std::count_if(s.candidates.begin(), s.candidates.end(), few));
  ASSERT_GE(few_rows, 60u);
  for (size_t i = 0; i < few_rows; ++i) EXPECT_TRUE(few(s.candidates[i])) << i << " " << s.candidates[i].name;
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(s.candidates[i].family->name, i < 4 ? "rowdot" : "rowmma") << i;
  // At M = 8 rowmma opens each round with 6 (faster than rowdot there, and quicker to build), then rowdot's 4;
  // the 32-row tiles of tiled and splitk are not tall there: they follow.
  p.shape.m = 8;
  SearchSpace m8 = build_search_space(kernel_families(), p, device);
  order_for_screening(m8.candidates, p);
  std::vector<std::string> first;
  for (size_t i = 0; i < 12; ++i) first.push_back(m8.candidates[i].family->name);
  EXPECT_EQ(first, (std::vector<std::string>{"rowmma", "rowmma", "rowmma", "rowmma", "rowmma", "rowmma", "rowdot",
                                             "rowdot", "rowdot", "rowdot", "tiled", "splitk"}));
  // From M = 4 on in 16 bits (8 in f32) rowdot's first configs make trips of up to 16 chunk products (8 in f32)
  // with the most rows (notes, probe 24 and step 25).
  const auto first_rowdot = [&](uint64_t m, DType dtype = DType::f16) {
    p.shape.m = m;
    p.dtype = dtype;
    SearchSpace space = build_search_space({&family_named("rowdot")}, p, device);
    order_for_screening(space.candidates, p);
    return space.candidates.at(0).name;
  };
  EXPECT_EQ(first_rowdot(8), "rowdot_f16_wg128_rows2_unroll1");
  EXPECT_EQ(first_rowdot(4), "rowdot_f16_wg128_rows4_unroll1");
  EXPECT_EQ(first_rowdot(5), "rowdot_f16_wg128_rows2_unroll1");
  EXPECT_EQ(first_rowdot(8, DType::f32), "rowdot_f32_wg128_rows1_unroll1");
  p.dtype = DType::f16;
  p.shape.m = 1;
  // Its first config: about 2048 workgroups (N / ROWS), 128 invocations, two chunks in flight.
  EXPECT_EQ(s.candidates[0].name, "rowdot_f16_wg128_rows2_unroll2");
  // rowmma's first: about 128 workgroups (N / (16 FRAGS)), 16 subgroups, 2 fragments a trip, fragments built in
  // registers.
  EXPECT_EQ(s.candidates[4].name, "rowmma_f16_sgk16_frags2_unroll2_wide0_regs1");
  // Tiles taller than 4 x M = 4 come after every other config: once one is screened, no short one follows.
  bool tall_seen = false;
  for (const Candidate& c : s.candidates) {
    bool tall = false;
    for (const auto& [name, value] : c.config.values) tall |= name == "bm" && value > 4;
    if (tall_seen) {
      EXPECT_TRUE(tall) << c.name << " screened after a tall tile";
    }
    tall_seen |= tall;
  }
  EXPECT_TRUE(tall_seen);

  // B stored K x N: few-rows opens the rounds instead.
  p.layout = Layout{false, false};
  SearchSpace nn = build_search_space(kernel_families(), p, device);
  order_for_screening(nn.candidates, p);
  ASSERT_FALSE(nn.candidates.empty());
  EXPECT_EQ(nn.candidates[0].family->name, "fewrows");
  // M = 17 is no longer decoding: the matrix families open the rounds again.
  p.shape.m = 17;
  SearchSpace wide = build_search_space(kernel_families(), p, device);
  order_for_screening(wide.candidates, p);
  EXPECT_EQ(wide.candidates[0].family->name, "coopmat");
}

namespace gemmtune {

TEST(SearchSpace, SweptConfigsAreTheSweptPartOfAllConfigsInTheSameOrder) {
  // build_search_space builds a problem's configs without the ones it does not sweep: the same configs, in the order
  // all_configs() gives them (the screening order's ties keep it), for every family, six types and the K thresholds of
  // the parameters swept by problem (tiles and cvec at K <= 512 / 640).
  std::vector<const KernelFamily*> families = kernel_families();
  families.push_back(&family_named("naive"));
  size_t compared = 0;
  for (const KernelFamily* f : families)
    for (DType dtype : {DType::f32, DType::f16, DType::bf16, DType::i8, DType::f16_q4_0, DType::f32_q8_0})
      for (uint64_t k : {64u, 608u, 2048u, 8192u}) {
        GemmProblem p;
        p.shape = Shape{512, 4096, k, 1};
        p.dtype = dtype;
        p.layout = Layout{false, true};
        std::vector<std::string> filtered, swept;
        for (const Config& c : f->all_configs())
          if (f->sweeps(c, p)) filtered.push_back(f->full_config_name(c, dtype));
        for (const Config& c : f->swept_configs(p)) swept.push_back(f->full_config_name(c, dtype));
        EXPECT_EQ(swept, filtered) << f->name << " " << dtype_name(dtype) << " K = " << k;
        compared += swept.size();
      }
  EXPECT_GT(compared, 10000u);
}

TEST(SearchSpace, LayoutRulesReadTheConfigAloneAndLeaveTheCombinationsThatBreakThemOutOfTheFamily) {
  // all_configs() is the parameter product, in order, less exactly the combinations that break a layout rule; a rule
  // gives the same answer for every problem and device (it is checked once, with none).
  std::vector<const KernelFamily*> families = kernel_families();
  families.push_back(&family_named("naive"));
  std::vector<GemmProblem> problems;
  for (DType dtype : {DType::f32, DType::f16, DType::i8, DType::f16_q4_0})
    for (Mode mode : {Mode::fast, Mode::deterministic}) {
      GemmProblem p;
      p.shape = Shape{dtype == DType::f16 ? 7u : 4096u, 77, 3000, 2};
      p.dtype = dtype;
      p.layout = Layout{dtype == DType::f32, true};
      p.mode = mode;
      problems.push_back(p);
    }
  const vk::DeviceInfo devices[] = {vk::DeviceInfo{}, matrix_device(), capable_device()};
  size_t broken = 0;
  for (const KernelFamily* f : families) {
    std::vector<std::string> kept;
    size_t count = 1;
    for (const ParamSpec& p : f->params) count *= p.values.size();
    Config c;
    for (const ParamSpec& p : f->params) c.values.push_back({p.name, 0});
    for (size_t i = 0; i < count; ++i) {
      for (size_t j = f->params.size(), rest = i; j-- > 0; rest /= f->params[j].values.size())
        c.values[j].second = f->params[j].values[rest % f->params[j].values.size()];
      const std::optional<std::string> rule = f->broken_layout_rule(c);
      if (!rule) kept.push_back(f->full_config_name(c, DType::f32));
      broken += rule.has_value();
      if (i % 61 != 0) continue;
      for (const Constraint& k : f->constraints) {
        if (!k.layout_rule) continue;
        const bool breaks = k.check(*f, c, GemmProblem{}, vk::DeviceInfo{}).has_value();
        for (const GemmProblem& p : problems)
          for (const vk::DeviceInfo& d : devices)
            EXPECT_EQ(k.check(*f, c, p, d).has_value(), breaks)
                << f->name << " " << k.code << " " << p.shape.to_string() << " " << dtype_name(p.dtype);
      }
    }
    std::vector<std::string> listed;
    for (const Config& config : f->all_configs()) listed.push_back(f->full_config_name(config, DType::f32));
    EXPECT_EQ(listed, kept) << f->name;
  }
  EXPECT_GT(broken, 300000u);  // warptile's lanes and warp tiles, above all
  const Config lanes16{{{"bm", 64},
                        {"bn", 64},
                        {"bk", 16},
                        {"wm", 32},
                        {"wn", 32},
                        {"tm", 8},
                        {"tn", 8},
                        {"splits", 1},
                        {"reduce", 0},
                        {"ahead", 0},
                        {"tiles", 1},
                        {"cvec", 0},
                        {"kslices", 1}}};
  EXPECT_EQ(family_named("warptile").broken_layout_rule(lanes16).value_or(""),
            "lane_grid: (wm/tm) x (wn/tn) = 16 lanes, a warp tile has 32");
}

TEST(SearchSpace, EachFamilysShapeNeedsAreExactlyWhatItsChecksAcceptOnAnyShape) {
  // Lookup and export decide by KernelFamily::shape_needs whether a tuned config can run another shape; the search
  // space decides by the family's applicability and constraints. On a device that prunes nothing for its limits,
  // a config is a candidate for a shape exactly when the shape meets its needs and the problem sweeps it (configs
  // that are never candidates for the dtype and layout, such as 8-bit split-k, are left out).
  const vk::DeviceInfo device = capable_device();
  const uint64_t ms[] = {1, 5, 8, 9, 16, 17}, ns[] = {8, 15, 16, 77}, ks[] = {15, 16, 100, 128, 193, 520, 1003};
  size_t compared = 0;
  for (DType dtype : {DType::f32, DType::f16, DType::i8})
    for (Layout layout : {Layout{false, false}, Layout{false, true}}) {
      std::unordered_map<std::string, std::pair<const KernelFamily*, Config>> seen;  // candidates somewhere
      std::vector<std::pair<GemmProblem, std::unordered_set<std::string>>> spaces;
      for (uint64_t m : ms)
        for (uint64_t n : ns)
          for (uint64_t k : ks) {
            GemmProblem p;
            p.shape = {m, n, k, 1};
            p.dtype = dtype;
            p.layout = layout;
            std::unordered_set<std::string> names;
            for (Candidate& c : build_search_space(kernel_families(), p, device).candidates) {
              seen.try_emplace(c.name, c.family, c.config);  // no node built for a name seen before
              names.insert(std::move(c.name));
            }
            spaces.emplace_back(p, std::move(names));
          }
      for (const auto& [p, names] : spaces)
        for (const auto& [name, fc] : seen) {
          const auto& [family, config] = fc;
          const ShapeNeeds needs = family->shape_needs ? family->shape_needs(config, dtype, layout) : ShapeNeeds{};
          const std::optional<std::string> unmet = unmet_shape_needs(needs, p.shape.m, p.shape.n, p.shape.k);
          // A parameter the problem gains nothing from (ParamSpec::swept_where) leaves its config out, needs met.
          const bool swept = family->sweeps(config, p);
          EXPECT_EQ(names.count(name) == 1, !unmet && swept)
              << name << " " << p.shape.to_string() << " " << layout.name() << ": " << unmet.value_or("needs met")
              << (swept ? "" : ", not swept");
          ++compared;
        }
    }
  EXPECT_GT(compared, 100000u);
}

TEST(SearchSpace, ATableConfigsNeedsComeFromItsFamilyWithLeftOutParametersAtTheirUnnamedValue) {
  const auto needs = tuned_shape_needs("rowdot", {{"wg", 128}, {"rows", 4}, {"unroll", 2}}, DType::f16, Layout{});
  ASSERT_TRUE(needs);
  EXPECT_EQ(needs->max_m, 4u);  // 4 rows x 2 unrolled chunks x M <= 32 chunk products a trip
  EXPECT_EQ(needs->splits, 1u);
  EXPECT_EQ(tuned_shape_needs("fewrows", {{"cols", 8}, {"slices", 4}, {"unroll", 1}, {"vec", 8}}, DType::f16, Layout{})
                ->n_multiple,
            2u);
  EXPECT_EQ(tuned_shape_needs("rowmma", {{"sgk", 16}, {"frags", 2}, {"unroll", 2}, {"wide", 1}, {"splits", 2}},
                              DType::bf16, Layout{false, true})
                ->k_multiple,
            8u);
  EXPECT_FALSE(tuned_shape_needs("future", {}, DType::f16, Layout{}));
  EXPECT_FALSE(tuned_shape_needs("rowdot", {{"wg", 128}, {"rows", 4}}, DType::f16,
                                 Layout{}));  // unroll missing, no unnamed value
  EXPECT_FALSE(
      tuned_shape_needs("rowdot", {{"wg", 128}, {"rows", 4}, {"unroll", 2}, {"lanes", 2}}, DType::f16, Layout{}));
}

}  // namespace gemmtune
