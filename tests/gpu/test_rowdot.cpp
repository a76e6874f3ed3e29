// The row-dot family (B stored N x K, M <= 16): every row count, both paths (aligned 16-byte chunks shared by
// the rows; per-row shifted chunks with element heads and tails), and its summation order.
#include <algorithm>
#include <cstring>

#include "gpu/lavapipe_env.hpp"
#include "kernels/registry.hpp"
#include "run/gemm_runner.hpp"
#include "tuner/space.hpp"

namespace gemmtune::test {

namespace {
GemmProblem rowdot_problem(uint64_t m, uint64_t n, uint64_t k, DType dtype, bool trans_a) {
  GemmProblem p;
  p.shape = {m, n, k, 1};
  p.dtype = dtype;
  p.layout = Layout{trans_a, true};
  return p;
}
}  // namespace

class RowDot : public GpuTest {};

TEST_F(RowDot, VerifiesEveryRowCountOnAlignedAndShiftedRows) {
  // K = 1024 with aligned rows takes the shared-chunk path; K = 1031 (odd) shifts every row of B differently
  // (element heads and tails around 16-byte chunks); offsets 3 and 5 shift A and B; tt reads A transposed
  // (at K = 1024 and M = 1 through the shared-chunk path: one row of op(A) stored K x 1 is contiguous).
  // N = 37 leaves the last workgroup's rows past N. The input type rotates over the cases (llvmpipe builds
  // every unrolled trip anew: seconds each), and the configs are the largest trips each M allows.
  struct Case {
    uint64_t k;
    bool trans_a;
    uint64_t offset;
  };
  struct Rows {
    uint64_t m;
    Config config;
  };
  const Rows row_counts[] = {{1, Config{{{"wg", 64}, {"rows", 4}, {"unroll", 2}, {"splits", 1}}}},
                             {3, Config{{{"wg", 128}, {"rows", 2}, {"unroll", 1}, {"splits", 1}}}},
                             {16, Config{{{"wg", 64}, {"rows", 1}, {"unroll", 1}, {"splits", 1}}}}};
  const DType dtypes[] = {DType::f32, DType::f16, DType::bf16};
  size_t turn = 0;
  for (const Rows& rc : row_counts) {
    for (const Case& cs :
         {Case{1024, false, 0}, Case{1031, false, 0}, Case{1024, false, 5}, Case{1031, true, 0}, Case{1024, true, 0}}) {
      const DType dtype = dtypes[turn++ % 3];
      GemmProblem p = rowdot_problem(rc.m, 37, cs.k, dtype, cs.trans_a);
      p.a.offset = cs.offset;
      p.b.offset = cs.offset ? cs.offset - 2 : 0;
      SearchSpace space = build_search_space({&family_named("rowdot")}, p, device().info());
      ASSERT_TRUE(space.not_applicable.empty()) << rc.m;
      const std::string name = family_named("rowdot").config_name(rc.config, dtype);
      ASSERT_TRUE(std::any_of(space.candidates.begin(), space.candidates.end(), [&](const Candidate& c) {
        return c.name == name;
      })) << name;
      GemmRunner runner(device(), p, RunOptions{});
      const Measurement r = runner.verify(family_named("rowdot"), rc.config);
      EXPECT_EQ(r.disposition, Disposition::passed)
          << p.shape.to_string() << " " << dtype_name(dtype) << " " << p.layout.name() << " offset " << cs.offset << " "
          << name << ": " << r.detail;
    }
  }
}

TEST_F(RowDot, RowsAndUnrollDoNotChangeTheBits) {
  // Every row of B is summed by the same invocations in the same order whatever ROWS and UNROLL are, so for a
  // workgroup size the bits are fixed; a wrong order (or a dropped chunk) would change them.
  for (uint64_t k : {1024u, 1031u}) {
    GemmProblem p = rowdot_problem(5, 19, k, DType::bf16, false);
    p.mode = Mode::deterministic;
    p.epilogue = {true, 0, Activation::gelu_erf};
    GemmRunner runner(device(), p, RunOptions{});
    std::vector<float> first;
    for (const auto& [rows, unroll] : {std::pair{1u, 1u}, std::pair{2u, 2u}, std::pair{4u, 1u}, std::pair{1u, 4u}}) {
      {
        Config c{{{"wg", 64}, {"rows", rows}, {"unroll", unroll}, {"splits", 1}}};
        const Measurement m = runner.verify(family_named("rowdot"), c);
        ASSERT_EQ(m.disposition, Disposition::passed) << m.detail;
        if (first.empty()) first = runner.last_result();
        EXPECT_EQ(0, std::memcmp(first.data(), runner.last_result().data(), first.size() * sizeof(float)))
            << "rows " << rows << " unroll " << unroll << " k " << k;
      }
    }
  }
}

TEST_F(RowDot, RefusesWhatItCannotServeWithTheReason) {
  const auto reason = [](const GemmProblem& p) {
    return family_named("rowdot").not_applicable(p, device().info()).value_or("");
  };
  EXPECT_NE(reason(rowdot_problem(17, 8, 8, DType::f32, false)).find("at most 16 rows"), std::string::npos);
  GemmProblem nn = rowdot_problem(1, 8, 8, DType::f16, false);
  nn.layout = Layout{false, false};
  EXPECT_NE(reason(nn).find("B stored K x N"), std::string::npos);
  EXPECT_NE(reason(rowdot_problem(1, 8, 8, DType::i8, false)).find("8-bit"), std::string::npos);
  // ROWS x M accumulators beyond 64 are pruned with the count.
  SearchSpace s =
      build_search_space({&family_named("rowdot")}, rowdot_problem(16, 64, 64, DType::f32, false), device().info());
  bool pruned_rows8 = false;
  for (const PrunedConfig& pc : s.pruned)
    pruned_rows8 |= pc.code == "registers" && pc.name.find("rows8") != std::string::npos;
  EXPECT_TRUE(pruned_rows8);
}

}  // namespace gemmtune::test
