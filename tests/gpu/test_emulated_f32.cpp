// f32 on the matrix units (family bf16x6) against native f32 on the same inputs (issue 44): the tuner's uniform
// inputs and the wide-range set (OperandFill::wide: every row spread over 2^-30..2^31, every other term cancelling
// its neighbour). bf16x6 meets f32's bound wherever the native kernel does and its error is never more than 4x the
// native kernel's, normwise and elementwise, split while staging or once by its pre-pass. The native half runs
// everywhere; bf16x6 needs cooperative matrices, so on lavapipe the test ends skipped after it (the H200 run covers
// it: GEMMTUNE_TEST_WITHOUT_VALIDATION=1).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <optional>

#include "gpu/lavapipe_env.hpp"
#include "kernels/registry.hpp"
#include "run/gemm_runner.hpp"
#include "tuner/space.hpp"

namespace gemmtune::test {
namespace {

struct AccuracyCase {
  Shape shape;
  const char* layout;
};

/// The `which`-th candidate of the family for the problem (modulo their count; those with `prepass` at that value
/// where it is given), verified with `options`.
Measurement verify_candidate(const KernelFamily& family, const GemmProblem& p, const RunOptions& options, size_t which,
                             std::optional<uint32_t> prepass = std::nullopt) {
  SearchSpace space = build_search_space({&family}, p, device().info());
  std::erase_if(space.candidates, [&](const Candidate& c) { return prepass && c.config.get("prepass") != *prepass; });
  EXPECT_FALSE(space.candidates.empty()) << family.name << " at " << p.shape.to_string();
  if (space.candidates.empty()) return {};
  const Candidate& c = space.candidates[which % space.candidates.size()];
  GemmRunner runner(device(), p, options);
  Measurement m = runner.verify(family, c.config);
  m.detail = c.name;
  return m;
}

class EmulatedF32 : public GpuTest {};

TEST_F(EmulatedF32, MeetsF32BoundsWhereNativeDoesAndNeverFourTimesItsError) {
  const KernelFamily& native = family_named("tiled");
  const KernelFamily& emulated = family_named("bf16x6");
  const std::optional<std::string> unsupported = emulated.device_unsupported(DType::f32, device().info());
  size_t which = 0;
  for (const AccuracyCase& c : {AccuracyCase{{128, 96, 1024, 1}, "nn"}, AccuracyCase{{197, 200, 544, 2}, "tn"},
                                AccuracyCase{{64, 160, 4096, 1}, "nt"}}) {
    for (bool wide : {false, true}) {
      GemmProblem p;
      p.shape = c.shape;
      p.dtype = DType::f32;
      p.layout = parse_layout(c.layout);
      RunOptions options;
      options.fill.wide = wide;
      const char* inputs = wide ? "wide" : "uniform";
      const Measurement n = verify_candidate(native, p, options, which += 3);
      ASSERT_EQ(n.error.non_finite, 0u) << n.detail << " " << inputs;
      std::printf("%s %s %s: native %s error %.3g elementwise %.3g\n", p.shape.to_string().c_str(), c.layout, inputs,
                  n.detail.c_str(), n.error.error, n.error.elementwise_rel);
      // Uniform inputs meet the bound natively; the wide set's cancellation leaves native f32 above it at large K.
      EXPECT_TRUE(wide || n.error.passed) << n.detail << ": " << n.error.error;
      if (unsupported) continue;
      for (uint32_t prepass = 0; prepass < 2; ++prepass) {  // split while staging, and once by the pre-pass
        const Measurement e = verify_candidate(emulated, p, options, which += 5, prepass);
        std::printf("  %s error %.3g elementwise %.3g\n", e.detail.c_str(), e.error.error, e.error.elementwise_rel);
        ASSERT_EQ(e.error.non_finite, 0u) << e.detail << " " << inputs;
        EXPECT_TRUE(!n.error.passed || e.error.passed) << e.detail << " " << inputs << ": " << e.error.error;
        EXPECT_LE(e.error.error, 4.0 * n.error.error) << e.detail << " " << inputs;
        EXPECT_LE(e.error.elementwise_rel, 4.0 * n.error.elementwise_rel) << e.detail << " " << inputs;
      }
    }
  }
  if (unsupported) GTEST_SKIP() << "bf16x6 is not served here (" << *unsupported << "); the H200 run covers it";
}

}  // namespace
}  // namespace gemmtune::test
