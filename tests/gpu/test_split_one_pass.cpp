// Split-k finished in one pass by each block's last workgroup (fewrows' column tiles, rowdot's blocks of rows):
// every split count on odd and aligned rows (both of rowdot's paths), batches, both op(A) layouts, M up to 16,
// alpha = 0, beta, bias and activations; repeated runs (the arrival counters must come back to zero after every
// run, or the next verification fails); fused = unfused; fixed bits in deterministic mode across runners.
#include <algorithm>
#include <cstring>
#include <functional>

#include "gpu/lavapipe_env.hpp"
#include "kernels/registry.hpp"
#include "run/gemm_runner.hpp"
#include "tuner/space.hpp"

namespace gemmtune::test {

namespace {
Config fewrows_config(uint32_t cols, uint32_t slices, uint32_t unroll, uint32_t vec, uint32_t splits) {
  return Config{{{"cols", cols}, {"slices", slices}, {"unroll", unroll}, {"vec", vec}, {"splits", splits}}};
}
Config rowdot_config(uint32_t wg, uint32_t rows, uint32_t unroll, uint32_t splits) {
  return Config{{{"wg", wg}, {"rows", rows}, {"unroll", unroll}, {"splits", splits}}};
}

struct SplitCase {
  std::string label;
  const KernelFamily* family;
  GemmProblem problem;
  std::function<Config(uint32_t splits)> config;
};

GemmProblem split_problem(Shape shape, DType dtype, Layout layout, const std::function<void(GemmProblem&)>& set = {}) {
  GemmProblem p;
  p.shape = shape;
  p.dtype = dtype;
  p.layout = layout;
  if (set) set(p);
  return p;
}

std::vector<SplitCase> split_cases() {
  const Layout nn{false, false}, tn{true, false}, nt{false, true}, tt{true, true};
  auto few = [](uint32_t vec) { return [vec](uint32_t s) { return fewrows_config(8, 8, 4, vec, s); }; };
  auto dot = [](uint32_t rows) { return [rows](uint32_t s) { return rowdot_config(64, rows, 1, s); }; };
  auto epilogue = [](GemmProblem& p) {
    p.alpha = 0.5f;
    p.beta = -1.5f;
    p.epilogue.bias = true;
    p.epilogue.activation = Activation::gelu_tanh;
  };
  auto alpha0 = [](GemmProblem& p) {
    p.alpha = 0.0f;
    p.beta = 2.0f;
    p.epilogue.bias = true;
  };
  // K = 1000: ranges of 512 / 256 / 128 terms, the last one shorter; N = 77 (fewrows: rows not 16-byte aligned,
  // aligned units shifted per slice); K = 1191 (rowdot: every row shifted, heads and tails in ranges); K = 520
  // allows 2 ranges only.
  return {
      {"fewrows 1x77x1000 f32", &family_named("fewrows"), split_problem({1, 77, 1000, 1}, DType::f32, nn), few(4)},
      {"fewrows 8x96x1000 bf16 tn", &family_named("fewrows"), split_problem({8, 96, 1000, 1}, DType::bf16, tn), few(8)},
      {"fewrows 3x77x1000x2 f16 epilogue", &family_named("fewrows"),
       split_problem({3, 77, 1000, 2}, DType::f16, nn, epilogue), few(8)},
      {"fewrows 2x40x520 f32 alpha 0", &family_named("fewrows"), split_problem({2, 40, 520, 1}, DType::f32, nn, alpha0),
       few(4)},
      {"rowdot 3x37x1024 f32 (aligned rows)", &family_named("rowdot"), split_problem({3, 37, 1024, 1}, DType::f32, nt),
       dot(4)},
      {"rowdot 16x21x1191 bf16 tt (shifted rows)", &family_named("rowdot"),
       split_problem({16, 21, 1191, 1}, DType::bf16, tt), dot(2)},
      {"rowdot 5x19x1000x2 f16 epilogue", &family_named("rowdot"),
       split_problem({5, 19, 1000, 2}, DType::f16, nt, epilogue), dot(1)},
      {"rowdot 2x40x520 f32 alpha 0", &family_named("rowdot"), split_problem({2, 40, 520, 1}, DType::f32, nt, alpha0),
       dot(2)},
  };
}
}  // namespace

class SplitOnePass : public GpuTest {};

TEST_F(SplitOnePass, EverySplitCountVerifiesAndRepeatsItsBits) {
  for (const SplitCase& cs : split_cases()) {
    GemmRunner runner(device(), cs.problem, RunOptions{});
    const SearchSpace space = build_search_space({cs.family}, cs.problem, device().info());
    for (uint32_t splits : {2u, 4u, 8u}) {
      const Config c = cs.config(splits);
      const std::string name = cs.family->config_name(c, cs.problem.dtype);
      const bool listed = std::any_of(space.candidates.begin(), space.candidates.end(),
                                      [&](const Candidate& k) { return k.name == name; });
      if (cs.problem.shape.k == 520 && splits > 2) {
        // 4 ranges of 160 terms leave the last one 40: too short (fewer than 64), so pruned with a reason.
        EXPECT_FALSE(listed) << cs.label << " " << name;
        continue;
      }
      ASSERT_TRUE(listed) << cs.label << " " << name;
      // Two timed samples of several runs each, then the same config verified again on the counters they left.
      const Measurement m = runner.evaluate(*cs.family, c, 1, 2);
      ASSERT_EQ(m.disposition, Disposition::passed) << cs.label << " " << name << ": " << m.detail;
      const std::vector<float> first = runner.last_result();
      const Measurement again = runner.verify(*cs.family, c);
      ASSERT_EQ(again.disposition, Disposition::passed) << cs.label << " " << name << ": " << again.detail;
      EXPECT_EQ(0, std::memcmp(first.data(), runner.last_result().data(), first.size() * sizeof(float)))
          << cs.label << " " << name << ": the ranges were not added in a fixed order";
      if (cs.problem.epilogue.bias || cs.problem.epilogue.activation != Activation::none) {
        const std::vector<float> unfused = runner.run_unfused(*cs.family, c);
        EXPECT_EQ(0, std::memcmp(first.data(), unfused.data(), first.size() * sizeof(float)))
            << cs.label << " " << name << ": fused != unfused";
      }
    }
  }
}

TEST_F(SplitOnePass, DeterministicModeKeepsItsBitsAcrossRunners) {
  for (const SplitCase& cs :
       {SplitCase{"fewrows", &family_named("fewrows"),
                  split_problem({5, 77, 1000, 1}, DType::bf16, Layout{false, false}),
                  [](uint32_t s) { return fewrows_config(16, 8, 1, 8, s); }},
        SplitCase{"rowdot", &family_named("rowdot"), split_problem({5, 77, 1031, 1}, DType::bf16, Layout{true, true}),
                  [](uint32_t s) { return rowdot_config(32, 2, 2, s); }}}) {
    GemmProblem p = cs.problem;
    p.mode = Mode::deterministic;
    std::vector<float> first;
    for (int round = 0; round < 2; ++round) {
      GemmRunner runner(device(), p, RunOptions{});
      ASSERT_EQ(runner.verify(*cs.family, cs.config(4)).disposition, Disposition::passed) << cs.label;
      if (first.empty()) {
        first = runner.last_result();
      } else {
        EXPECT_EQ(0, std::memcmp(first.data(), runner.last_result().data(), first.size() * sizeof(float))) << cs.label;
      }
    }
  }
}

}  // namespace gemmtune::test
