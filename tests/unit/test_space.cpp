#include <gtest/gtest.h>

#include <set>

#include "kernels/registry.hpp"
#include "tuner/space.hpp"

using namespace gemmtune;

namespace {
vk::DeviceInfo fake_device(uint32_t shared, uint32_t invocations, uint32_t max_groups = 65535) {
  vk::DeviceInfo d;
  d.name = "fake";
  d.max_shared_memory = shared;
  d.max_invocations = invocations;
  d.max_workgroup_size = {invocations, invocations, 64};
  d.max_workgroup_count = {max_groups, max_groups, max_groups};
  return d;
}
}  // namespace

TEST(TiledFamily, DeclaresTheDocumentedSpace) {
  const KernelFamily& f = tiled_family();
  EXPECT_EQ(f.all_configs().size(), 3u * 3 * 3 * 4 * 4);
  Config c{{{"bm", 64}, {"bn", 128}, {"bk", 16}, {"tm", 4}, {"tn", 8}}};
  EXPECT_EQ(f.workgroup_size(c), 16u * 16);
  EXPECT_EQ(f.shared_bytes(c), 16u * (64 + 1 + 128) * 4);
  EXPECT_EQ(f.config_name(c, DType::bf16), "tiled_bf16_bm64_bn128_bk16_tm4_tn8");
  auto grid = f.grid(c, Shape{100, 300, 7, 5});
  EXPECT_EQ(grid[0], 3u);
  EXPECT_EQ(grid[1], 2u);
  EXPECT_EQ(grid[2], 5u);
}

TEST(SearchSpace, PrunesAgainstDeviceLimitsAndKeepsReasons) {
  GemmProblem p{{1024, 768, 3072, 1}, DType::f32, 1, 0};
  SearchSpace roomy = build_search_space(kernel_families(), p, fake_device(65536, 1 << 20));
  EXPECT_EQ(roomy.candidates.size(), 432u);
  EXPECT_TRUE(roomy.pruned.empty());

  SearchSpace tight = build_search_space(kernel_families(), p, fake_device(16384, 256));
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
    EXPECT_LE(c.family->shared_bytes(c.config), 16384u) << c.name;
  }
}

TEST(SearchSpace, GridLimitPrunesWithTheAxisNamed) {
  GemmProblem p{{100000, 64, 64, 1}, DType::f32, 1, 0};
  SearchSpace s = build_search_space(kernel_families(), p, fake_device(65536, 1 << 20, 1000));
  bool found = false;
  for (const PrunedConfig& pc : s.pruned) {
    if (pc.code == "grid") {
      found = true;
      EXPECT_NE(pc.reason.find("maxComputeWorkGroupCount.y"), std::string::npos) << pc.reason;
    }
  }
  EXPECT_TRUE(found);
}

TEST(SearchSpace, ScreeningOrderIsDeterministicAndPrefersMidSizedWorkgroups) {
  GemmProblem p{{256, 256, 256, 1}, DType::f16, 1, 0};
  SearchSpace a = build_search_space(kernel_families(), p, fake_device(32768, 1024));
  SearchSpace b = a;
  order_for_screening(a.candidates);
  order_for_screening(b.candidates);
  ASSERT_EQ(a.candidates.size(), b.candidates.size());
  for (size_t i = 0; i < a.candidates.size(); ++i) EXPECT_EQ(a.candidates[i].name, b.candidates[i].name);
  uint32_t wg = a.candidates.front().family->workgroup_size(a.candidates.front().config);
  EXPECT_GE(wg, 64u);
  EXPECT_LE(wg, 256u);
}
