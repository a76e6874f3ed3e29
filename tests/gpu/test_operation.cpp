// The full operation on a real driver: every variant x dtype x layout over edge shapes, padded leading
// dimensions, offsets, shared B, alpha/beta (NaN-filled C for beta = 0, NaN A and B for alpha = 0) and every
// epilogue; the fused epilogue must equal separate passes bit for bit; deterministic mode must repeat its bits.
#include <cstring>
#include <functional>

#include "gpu/lavapipe_env.hpp"
#include "kernels/matrix_requirements.hpp"
#include "kernels/registry.hpp"
#include "run/gemm_runner.hpp"
#include "tuner/space.hpp"

namespace gemmtune::test {

namespace {
struct OperationCase {
  std::string label;
  std::function<void(GemmProblem&)> set;
};

GemmProblem operation_problem(Shape shape, DType dtype, Layout layout) {
  GemmProblem p;
  p.shape = shape;
  p.dtype = dtype;
  p.layout = layout;
  return p;
}

const std::vector<OperationCase>& operation_cases() {
  static const std::vector<OperationCase> cases = {
      {"1x1x1",
       [](GemmProblem& p) {
         p.shape = {1, 1, 1, 1};
       }},
      {"1x7x3 beta 1 relu",
       [](GemmProblem& p) {
         p.shape = {1, 7, 3, 1};
         p.beta = 1.0f;
         p.epilogue.activation = Activation::relu;
       }},
      {"4x3072x768 bias gelu-erf",
       [](GemmProblem& p) {
         p.shape = {4, 3072, 768, 1};
         p.epilogue = {true, 0, Activation::gelu_erf};
       }},
      {"8x1000x999 alpha 0.5 beta -1.5 gelu-tanh",
       [](GemmProblem& p) {
         p.shape = {8, 1000, 999, 1};
         p.alpha = 0.5f;
         p.beta = -1.5f;
         p.epilogue.activation = Activation::gelu_tanh;
       }},
      {"17x33x65 ld+3 offsets bias relu",
       [](GemmProblem& p) {
         p.shape = {17, 33, 65, 1};
         p.a.ld = (p.layout.trans_a ? 17 : 65) + 3;
         p.b.ld = (p.layout.trans_b ? 65 : 33) + 3;
         p.c.ld = 33 + 3;
         p.a.offset = 5;
         p.b.offset = 7;
         p.c.offset = 11;
         p.epilogue = {true, 3, Activation::relu};
       }},
      {"128x192x1536 bias",
       [](GemmProblem& p) {
         p.shape = {128, 192, 1536, 1};  // a long k (16 ranges of 96), and a partial last tile for 128-wide tiles
         p.epilogue.bias = true;
       }},
      {"257x129x1031 beta 1",
       [](GemmProblem& p) {
         p.shape = {257, 129, 1031, 1};
         p.beta = 1.0f;
       }},
      {"6x20x160x3 shared B alpha 0.5 beta -1.5 gelu-erf",
       [](GemmProblem& p) {
         p.shape = {6, 20, 160, 3};
         p.b.batch_stride = 0;
         p.alpha = 0.5f;
         p.beta = -1.5f;
         p.epilogue.activation = Activation::gelu_erf;
       }},
      {"5x9x200 alpha 0 beta -1.5 bias",
       [](GemmProblem& p) {
         p.shape = {5, 9, 200, 1};
         p.alpha = 0.0f;
         p.beta = -1.5f;
         p.epilogue.bias = true;
       }},
  };
  return cases;
}

/// One config per case, rotating through the candidate list so the cases meet different tile geometries.
std::optional<Candidate> pick(const KernelFamily& family, const GemmProblem& p, size_t salt) {
  SearchSpace space = build_search_space({&family}, p, device().info());
  if (space.candidates.empty()) return std::nullopt;
  return space.candidates[(salt * 7919) % space.candidates.size()];
}

std::string param_name(const ::testing::TestParamInfo<std::tuple<std::string, DType, Layout>>& info) {
  return std::get<0>(info.param) + "_" + std::string(dtype_name(std::get<1>(info.param))) + "_" +
         std::get<2>(info.param).name();
}
}  // namespace

class Operation : public GpuTest, public ::testing::WithParamInterface<std::tuple<std::string, DType, Layout>> {};

TEST_P(Operation, VerifiesEveryCaseAndFusedEqualsUnfusedBitForBit) {
  const auto& [variant, dtype, layout] = GetParam();
  const KernelFamily& family = *find_family(variant);
  // Float few-rows streams B stored K x N and row-dot B stored N x K: each must refuse the other layouts. The
  // cooperative-matrix variants (row-mma included) serve 16-bit inputs on devices that qualify (on lavapipe every
  // case must be refused).
  const std::string input(dtype_name(dtype));
  const bool coopmat_serves = dtype != DType::f32 && !coopmat_unsupported(device().info(), input);
  const bool coopmat2_serves = dtype != DType::f32 && !coopmat2_unsupported(device().info(), input);
  const bool serves_layout = !(variant == "fewrows" && layout.trans_b) && !(variant == "rowdot" && !layout.trans_b) &&
                             (variant != "rowmma" || coopmat_serves) && (variant != "coopmat" || coopmat_serves) &&
                             (variant != "coopmat2" || coopmat2_serves);
  size_t ran = 0;
  for (size_t i = 0; i < operation_cases().size(); ++i) {
    const OperationCase& oc = operation_cases()[i];
    GemmProblem p = operation_problem({}, dtype, layout);
    oc.set(p);
    if (family.not_applicable && family.not_applicable(p, device().info())) continue;
    EXPECT_TRUE(serves_layout) << oc.label << ": " << variant << " accepted a problem it cannot serve";
    std::optional<Candidate> c =
        pick(family, p, i + size_t(dtype) * 3 + (layout.trans_a ? 1 : 0) + (layout.trans_b ? 2 : 0));
    ASSERT_TRUE(c) << oc.label << ": every config pruned";
    GemmRunner runner(device(), p, RunOptions{});
    Measurement m = runner.verify(family, c->config);
    EXPECT_EQ(m.disposition, Disposition::passed) << oc.label << " " << c->name << ": " << m.detail;
    if (m.disposition != Disposition::passed) continue;
    ++ran;
    if (p.epilogue.bias || p.epilogue.activation != Activation::none) {
      std::vector<float> fused = runner.last_result();
      std::vector<float> unfused = runner.run_unfused(family, c->config);
      ASSERT_EQ(fused.size(), unfused.size());
      EXPECT_EQ(0, std::memcmp(fused.data(), unfused.data(), fused.size() * sizeof(float)))
          << oc.label << " " << c->name << ": the fused epilogue differs from separate passes";
    }
  }
  EXPECT_EQ(ran > 0, serves_layout);
}

INSTANTIATE_TEST_SUITE_P(AllVariants, Operation,
                         ::testing::Combine(::testing::Values("tiled", "splitk", "fewrows", "rowdot", "rowmma",
                                                              "coopmat", "coopmat2", "naive"),
                                            ::testing::Values(DType::f32, DType::f16, DType::bf16),
                                            ::testing::Values(Layout{false, false}, Layout{false, true},
                                                              Layout{true, false}, Layout{true, true})),
                         param_name);

class Determinism : public GpuTest {};

TEST_F(Determinism, TwoRunsGiveIdenticalBitsForEveryVariant) {
  for (const char* variant : {"tiled", "splitk", "fewrows", "rowdot"}) {
    const KernelFamily& family = *find_family(variant);
    const bool few = std::string(variant) == "fewrows" || std::string(variant) == "rowdot";
    // fewrows streams B stored K x N, the others are run with B stored N x K.
    GemmProblem p =
        operation_problem({few ? 7u : 70u, 90, 1000, 1}, DType::bf16, Layout{false, std::string(variant) != "fewrows"});
    p.mode = Mode::deterministic;
    p.beta = 1.0f;
    p.epilogue = {true, 0, Activation::gelu_tanh};
    std::optional<Candidate> c = pick(family, p, 3);
    ASSERT_TRUE(c);
    std::vector<float> results[2];
    for (auto& r : results) {
      GemmRunner runner(device(), p, RunOptions{});  // fresh buffers and pipelines each time
      ASSERT_EQ(runner.verify(family, c->config).disposition, Disposition::passed) << c->name;
      r = runner.last_result();
    }
    EXPECT_EQ(0, std::memcmp(results[0].data(), results[1].data(), results[0].size() * sizeof(float))) << c->name;
  }
}

TEST_F(Determinism, TiledFixedOrderDoesNotDependOnTheStagingStep) {
  // The deterministic order (16-product chains, 32-term blocks, 128-term groups) is independent of BK.
  GemmProblem p = operation_problem({40, 24, 1000, 1}, DType::f32, Layout{});
  p.mode = Mode::deterministic;
  GemmRunner runner(device(), p, RunOptions{});
  std::vector<float> by_bk[2];
  for (int i = 0; i < 2; ++i) {
    Config c{{{"bm", 32}, {"bn", 32}, {"bk", i == 0 ? 16u : 32u}, {"tm", 4}, {"tn", 2}}};
    ASSERT_EQ(runner.verify(family_named("tiled"), c).disposition, Disposition::passed);
    by_bk[i] = runner.last_result();
  }
  EXPECT_EQ(0, std::memcmp(by_bk[0].data(), by_bk[1].data(), by_bk[0].size() * sizeof(float)));
}

TEST_F(Determinism, WarptileAheadDoesNotChangeTheBits) {
  // ahead1 reads a k row's fragments before the row ahead of it is multiplied, but every output still adds its
  // terms in ascending k with the same FMAs: the bits of ahead0. Interior tiles and edges (70 x 96), a k tail
  // (K = 100), every layout, BK 8 and 16.
  for (Layout layout : {Layout{false, false}, Layout{false, true}, Layout{true, false}, Layout{true, true}}) {
    GemmRunner runner(device(), operation_problem({70, 96, 100, 1}, DType::f32, layout), RunOptions{});
    for (uint32_t bk : {8u, 16u}) {
      std::vector<float> first;
      for (uint32_t ahead : {0u, 1u}) {
        Config c{{{"bm", 64},
                  {"bn", 64},
                  {"bk", bk},
                  {"wm", 32},
                  {"wn", 64},
                  {"tm", 8},
                  {"tn", 8},
                  {"splits", 1},
                  {"reduce", 0},
                  {"ahead", ahead}}};
        ASSERT_EQ(runner.verify(*find_family("warptile"), c).disposition, Disposition::passed);
        if (first.empty()) first = runner.last_result();
        EXPECT_EQ(0, std::memcmp(first.data(), runner.last_result().data(), first.size() * sizeof(float)))
            << layout.name() << " bk " << bk;
      }
    }
  }
}

TEST_F(Determinism, FewRowsUnrollAndVectorWidthDoNotChangeTheBits) {
  // Unrolled trips issue their loads first and vector loads fetch 4 or 8 columns at once, but every column
  // chains its terms in the same order. K = 1003 leaves an unroll tail; N = 84 in rows of 88 takes the
  // aligned vector path with a partial last group; N = 77 (unaligned rows) takes aligned units shifted per slice,
  // with the element path at the matrix's last elements; rows of 79 with B 3 elements in and two products 6409
  // elements apart shift every slice and product differently.
  struct Case {
    uint64_t n;
    Layout layout;
    std::optional<uint64_t> ldb;
    uint64_t offset_b = 0, batch = 1;
  };
  for (const Case& cs : {Case{84, Layout{false, false}, 88}, Case{77, Layout{false, false}, {}},
                         Case{77, Layout{true, false}, {}}, Case{77, Layout{false, false}, 79, 3, 2}}) {
    for (DType dtype : {DType::f32, DType::bf16}) {
      GemmProblem p = operation_problem({5, cs.n, 1003, cs.batch}, dtype, cs.layout);
      p.b.ld = cs.ldb;
      p.b.offset = cs.offset_b;
      if (cs.batch > 1) p.b.batch_stride = 1003 * 79 + 172;
      GemmRunner runner(device(), p, RunOptions{});
      std::vector<float> first;
      for (uint32_t unroll : {1u, 4u, 8u}) {
        for (uint32_t vec : {1u, 4u, 8u}) {
          Config c{{{"cols", 8}, {"slices", 8}, {"unroll", unroll}, {"vec", vec}, {"splits", 1}}};
          const Measurement m = runner.verify(family_named("fewrows"), c);
          ASSERT_EQ(m.disposition, Disposition::passed) << m.detail;
          if (first.empty()) first = runner.last_result();
          EXPECT_EQ(0, std::memcmp(first.data(), runner.last_result().data(), first.size() * sizeof(float)))
              << "unroll " << unroll << " vec " << vec << " n " << cs.n << " " << cs.layout.name() << " "
              << dtype_name(dtype);
        }
      }
    }
  }
}

class GridSplit : public GpuTest {};

TEST(CooperativeMatrix2, IsReportedNotSupportedWithTheReasonWhereTheDeviceLacksIt) {
  const vk::DeviceInfo& d = device().info();
  GemmProblem p = operation_problem({64, 64, 64, 1}, DType::f16, Layout{});
  auto reason = family_named("coopmat2").not_applicable(p, d);
  if (d.matrix2.extension) {
    GTEST_SKIP() << "this device has VK_NV_cooperative_matrix2; the H200 run covers it";
  }
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->find("VK_NV_cooperative_matrix2"), std::string::npos) << *reason;
  SearchSpace space = build_search_space(kernel_families(), p, d);
  bool reported = false;
  for (const NotApplicable& n : space.not_applicable) reported |= n.variant == "coopmat2";
  EXPECT_TRUE(reported);
}

TEST(CooperativeMatrix, IsReportedNotSupportedWithTheReasonWhereTheDeviceLacksIt) {
  const vk::DeviceInfo& d = device().info();
  GemmProblem p = operation_problem({64, 64, 64, 1}, DType::f16, Layout{});
  auto reason = family_named("coopmat").not_applicable(p, d);
  if (d.matrix.extension) {
    GTEST_SKIP() << "this device has VK_KHR_cooperative_matrix; the H200 run covers it";
  }
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->find("VK_KHR_cooperative_matrix"), std::string::npos) << *reason;
  SearchSpace space = build_search_space(kernel_families(), p, d);
  bool reported = false;
  for (const NotApplicable& n : space.not_applicable) reported |= n.variant == "coopmat";
  EXPECT_TRUE(reported);
}

TEST(CooperativeMatrix, TilesVerifyWithRowsOffSixteenBytesInEveryLayout) {
  // Interior and edge tiles stage rows that are not 16-byte aligned, each group as the words that hold it (odd rows
  // start mid-word): rows of odd and of even-but-unaligned length, odd offsets, M and N off the 8 grid, K ending
  // mid-step; a spread of the space's configs (tile shapes, steps, stages, k ranges) in each layout, staging from the
  // operands and from the aligning pre-pass's planes (prepass1; with padding, a batch of two sharing A).
  // bf16 (its kernels are the f16 ones retyped) in layout nn.
  const KernelFamily& family = family_named("coopmat");
  for (Layout layout : {Layout{false, false}, Layout{false, true}, Layout{true, false}, Layout{true, true}}) {
    for (auto [padded, dtype] :
         {std::pair{false, DType::f16}, std::pair{true, DType::f16}, std::pair{true, DType::bf16}}) {
      if (dtype == DType::bf16 && (layout.trans_a || layout.trans_b)) continue;
      GemmProblem p = operation_problem({201, 150, 555, padded ? 2u : 1u}, dtype, layout);
      if (padded) {
        p.a.ld = (layout.trans_a ? 201 : 555) + 3;
        p.b.ld = (layout.trans_b ? 555 : 150) + 3;
        p.a.offset = 5;
        p.b.offset = 3;
        p.a.batch_stride = 0;
      }
      if (auto reason = family.not_applicable(p, device().info()))
        GTEST_SKIP() << *reason << "; the H200 run covers this test";
      SearchSpace space = build_search_space({&family}, p, device().info());
      std::array<std::vector<const Candidate*>, 2> by_prepass;
      for (const Candidate& c : space.candidates) by_prepass[c.config.get("prepass")].push_back(&c);
      GemmRunner runner(device(), p, RunOptions{});
      for (const std::vector<const Candidate*>& some : by_prepass) {
        ASSERT_GE(some.size(), 8u);
        for (size_t i = 0; i < some.size(); i += some.size() / 8) {
          const Measurement r = runner.verify(family, some[i]->config);
          EXPECT_EQ(r.disposition, Disposition::passed)
              << layout.name() << (padded ? " ld+3 batch 2" : "") << " " << some[i]->name << ": " << r.detail;
        }
      }
    }
  }
}

TEST(CooperativeMatrix, PartialLastStepsVerifyOnTheFastPathInEveryLayout) {
  // Rows on 16 bytes and M, N multiples of 8, so every tile stages on the fast path, with K off every step: K = 1003
  // with the rows along k padded to 1008 (a group straddles K), and K = 1000 packed (groups end at K); a spread of the
  // space's configs, split-k ranges (each with its own partial last step) among them.
  const KernelFamily& family = family_named("coopmat");
  for (Layout layout : {Layout{false, false}, Layout{false, true}, Layout{true, false}, Layout{true, true}}) {
    for (uint64_t k : {1003u, 1000u}) {
      GemmProblem p = operation_problem({136, 200, k, 1}, DType::f16, layout);
      if (!layout.trans_a) p.a.ld = 1008;
      if (layout.trans_b) p.b.ld = 1008;
      if (auto reason = family.not_applicable(p, device().info()))
        GTEST_SKIP() << *reason << "; the H200 run covers this test";
      const std::vector<Candidate> staged = candidates_with(family, p, "prepass", 0);
      ASSERT_GE(staged.size(), 12u);
      GemmRunner runner(device(), p, RunOptions{});
      for (size_t i = 0; i < staged.size(); i += staged.size() / 12) {
        const Measurement r = runner.verify(family, staged[i].config);
        EXPECT_EQ(r.disposition, Disposition::passed)
            << layout.name() << " K " << k << " " << staged[i].name << ": " << r.detail;
      }
    }
  }
}

TEST(CooperativeMatrix, SeveralTilesAWorkgroupVerifyAtTheEdgesInEveryLayout) {
  // A workgroup computing 2 or 4 tiles in turn (TILES), the next one's first step loaded before the current one is
  // written: N off every tile width, so a workgroup's last tiles pass N (and the last one is skipped), beta and bias
  // (C read back tile by tile), a batch of two; K short enough that the parameter is swept (two k steps of 64 and a
  // partial one), from the operands and from the aligning pre-pass's planes; q4_0 weights decoded while staging.
  const KernelFamily& family = family_named("coopmat");
  for (Layout layout : {Layout{false, false}, Layout{false, true}, Layout{true, false}, Layout{true, true}}) {
    for (DType dtype : {DType::f16, DType::f16_q4_0}) {
      if (dtype == DType::f16_q4_0 && !layout.trans_b) continue;  // weights in blocks are stored N x K
      GemmProblem p = operation_problem({201, 1000, dtype == DType::f16 ? 150u : 160u, 2}, dtype, layout);
      p.beta = 0.5f;
      p.epilogue.bias = true;
      if (auto reason = family.not_applicable(p, device().info()))
        GTEST_SKIP() << *reason << "; the H200 run covers this test";
      GemmRunner runner(device(), p, RunOptions{});
      for (uint32_t tiles : {2u, 4u}) {
        // Staging from the operands and from the pre-pass's planes (aligned copies, or decoded blocks) each.
        std::array<std::vector<Candidate>, 2> by_prepass;
        for (Candidate& c : candidates_with(family, p, "tiles", tiles))
          by_prepass[c.config.get("prepass")].push_back(std::move(c));
        for (const std::vector<Candidate>& some : by_prepass) {
          ASSERT_GE(some.size(), 3u) << "tiles " << tiles;
          for (size_t i = 0; i < some.size(); i += some.size() / 3) {
            const Measurement r = runner.verify(family, some[i].config);
            EXPECT_EQ(r.disposition, Disposition::passed)
                << layout.name() << " " << dtype_name(dtype) << " " << some[i].name << ": " << r.detail;
          }
        }
      }
    }
  }
}

TEST_F(GridSplit, BatchesPastTheWorkgroupCountLimitAreSplitNotRefused) {
  const uint32_t max_z = device().info().max_workgroup_count[2];
  ASSERT_LE(max_z, 1u << 20) << "this device's limit is too large to exceed cheaply";
  GemmProblem p = operation_problem({1, 2, 3, uint64_t(max_z) + 5}, DType::f32, Layout{});
  GemmRunner runner(device(), p, RunOptions{});
  Config tiled{{{"bm", 32}, {"bn", 32}, {"bk", 8}, {"tm", 4}, {"tn", 4}}};
  Measurement m = runner.verify(family_named("tiled"), tiled);
  EXPECT_EQ(m.disposition, Disposition::passed) << m.detail;
  Config few{{{"cols", 8}, {"slices", 4}, {"unroll", 4}, {"vec", 4}, {"splits", 1}}};
  m = runner.verify(family_named("fewrows"), few);
  EXPECT_EQ(m.disposition, Disposition::passed) << m.detail;
}

}  // namespace gemmtune::test
