// The few-rows family's split-k, finished in one pass by each column tile's last workgroup: every split count on
// odd and aligned rows, batches, both op(A) layouts, every row count, alpha = 0, beta, bias and activations;
// repeated runs (the arrival counters must come back to zero after every run); and fixed bits in
// deterministic mode.
#include <algorithm>
#include <cstring>

#include "gpu/lavapipe_env.hpp"
#include "kernels/registry.hpp"
#include "run/gemm_runner.hpp"
#include "tuner/space.hpp"

namespace gemmtune::test {

namespace {
Config fewrows_config(uint32_t cols, uint32_t slices, uint32_t unroll, uint32_t vec, uint32_t splits) {
  return Config{{{"cols", cols}, {"slices", slices}, {"unroll", unroll}, {"vec", vec}, {"splits", splits}}};
}
}  // namespace

class FewRowsSplit : public GpuTest {};

TEST_F(FewRowsSplit, EverySplitCountVerifiesAndRepeatsItsBits) {
  struct Case {
    std::string label;
    GemmProblem problem;
  };
  std::vector<Case> cases;
  auto add = [&](std::string label, Shape shape, DType dtype, bool trans_a, auto&& set) {
    GemmProblem p;
    p.shape = shape;
    p.dtype = dtype;
    p.layout = Layout{trans_a, false};
    set(p);
    cases.push_back({std::move(label), p});
  };
  // K = 1000: ranges of 512 / 256 / 128 terms, the last one shorter; N = 77 (rows not 16-byte aligned: aligned
  // units shifted per slice, tiles overlapping) and 96 (aligned rows).
  add("1x77x1000 f32", {1, 77, 1000, 1}, DType::f32, false, [](GemmProblem&) {});
  add("8x96x1000 bf16 tn", {8, 96, 1000, 1}, DType::bf16, true, [](GemmProblem&) {});
  add("3x77x1000x2 f16 alpha 0.5 beta -1.5 bias gelu-tanh", {3, 77, 1000, 2}, DType::f16, false, [](GemmProblem& p) {
    p.alpha = 0.5f;
    p.beta = -1.5f;
    p.epilogue.bias = true;
    p.epilogue.activation = Activation::gelu_tanh;
  });
  add("2x40x520 f32 alpha 0 beta 2 bias", {2, 40, 520, 1}, DType::f32, false, [](GemmProblem& p) {
    p.alpha = 0.0f;
    p.beta = 2.0f;
    p.epilogue.bias = true;
  });
  for (const Case& cs : cases) {
    GemmRunner runner(device(), cs.problem, RunOptions{});
    for (uint32_t splits : {2u, 4u, 8u}) {
      const Config c = fewrows_config(8, 8, 4, cs.problem.dtype == DType::f32 ? 4 : 8, splits);
      const std::string name = fewrows_family().config_name(c, cs.problem.dtype);
      SearchSpace space = build_search_space({&fewrows_family()}, cs.problem, device().info());
      const bool listed = std::any_of(space.candidates.begin(), space.candidates.end(), [&](const Candidate& k) { return k.name == name; });
      if (cs.problem.shape.k == 520 && splits > 2) {
        // 4 ranges of 160 terms leave the last one 40: too short (fewer than 64), so pruned with a reason.
        EXPECT_FALSE(listed) << cs.label << " " << name;
        continue;
      }
      ASSERT_TRUE(listed) << cs.label << " " << name;
      // Two timed samples of several runs each: every run after the first finds the counters where the last left them.
      const Measurement m = runner.evaluate(fewrows_family(), c, 1, 2);
      ASSERT_EQ(m.disposition, Disposition::passed) << cs.label << " " << name << ": " << m.detail;
      const std::vector<float> first = runner.last_result();
      ASSERT_EQ(runner.evaluate(fewrows_family(), c, 0, 0).disposition, Disposition::passed) << cs.label << " " << name;
      EXPECT_EQ(0, std::memcmp(first.data(), runner.last_result().data(), first.size() * sizeof(float)))
          << cs.label << " " << name << ": the ranges were not added in a fixed order";
      if (cs.problem.epilogue.bias || cs.problem.epilogue.activation != Activation::none) {
        const std::vector<float> unfused = runner.run_unfused(fewrows_family(), c);
        EXPECT_EQ(0, std::memcmp(first.data(), unfused.data(), first.size() * sizeof(float))) << cs.label << " " << name << ": fused != unfused";
      }
    }
  }
}

TEST_F(FewRowsSplit, DeterministicModeKeepsItsBitsAcrossRunners) {
  GemmProblem p;
  p.shape = {5, 77, 1000, 1};
  p.dtype = DType::bf16;
  p.mode = Mode::deterministic;
  const Config c = fewrows_config(16, 8, 1, 8, 4);
  std::vector<float> first;
  for (int round = 0; round < 2; ++round) {
    GemmRunner runner(device(), p, RunOptions{});
    ASSERT_EQ(runner.evaluate(fewrows_family(), c, 0, 0).disposition, Disposition::passed);
    if (first.empty()) {
      first = runner.last_result();
    } else {
      EXPECT_EQ(0, std::memcmp(first.data(), runner.last_result().data(), first.size() * sizeof(float)));
    }
  }
}

}  // namespace gemmtune::test
