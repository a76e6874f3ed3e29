// The tuner end to end on a real driver: screening, finals, winner and runner-up, budget accounting, pipelines
// built together on several threads.
#include <algorithm>

#include "gpu/lavapipe_env.hpp"
#include "kernels/registry.hpp"
#include "run/gemm_runner.hpp"
#include "tuner/space.hpp"
#include "tuner/tuner.hpp"

namespace gemmtune::test {

class Tuner : public GpuTest {};

TEST_F(Tuner, PicksTheFastestVerifiedFinalist) {
  GemmProblem p{{5, 80, 72, 1}, DType::f16, 1.0f, 0.0f};
  TuneOptions o;
  o.budget_s = 1e9;  // the whole space
  o.samples = 3;
  o.warmup = 1;
  TuneResult r = tune_problem(device(), p, {&family_named("fewrows")}, o);
  ASSERT_NE(r.best(), nullptr);
  EXPECT_FALSE(r.budget_exhausted);
  EXPECT_EQ(r.skipped, 0u);
  EXPECT_EQ(r.evaluated.size() + r.pruned.size(), family_named("fewrows").all_configs().size());
  // The fastest wins unless the runner-up is within the noise band (a tie goes to the simpler config). A finalist
  // whose first sample was 1.5x the best's is cut and is no runner-up: there is none where both others were cut.
  if (const EvaluatedConfig* second = r.runner_up()) {
    EXPECT_LE(r.best()->measurement.median_us, second->measurement.median_us * (1.0 + (r.tie ? r.noise_band : 0.0)));
    EXPECT_FALSE(second->measurement.cut);
  }
  EXPECT_EQ(r.best()->measurement.samples_us.size(), 3u);
  size_t finalists = 0, cut = 0;
  for (const EvaluatedConfig& e : r.evaluated) {
    finalists += e.finalist;
    cut += e.finalist && e.measurement.cut;
  }
  EXPECT_EQ(finalists, 3u);
  if (!r.runner_up()) {
    EXPECT_EQ(cut, 2u);
  }
  EXPECT_EQ(r.failed(), 0u);
  // With time for it, the baseline runs: the naive kernel, verified and timed with 3 samples.
  ASSERT_TRUE(r.baseline.has_value()) << r.baseline_skipped;
  EXPECT_EQ(r.baseline->name, "naive_f16_wg64");
  EXPECT_EQ(r.baseline->measurement.disposition, Disposition::passed) << r.baseline->measurement.detail;
  EXPECT_EQ(r.baseline->measurement.samples_us.size(), 3u);
  EXPECT_TRUE(r.baseline_skipped.empty());
}

TEST_F(Tuner, ATinyBudgetStillGivesAVerifiedWinnerAndCountsTheSkipped) {
  // 64^3: its baseline estimate (6 runs of 16 x the winner's run) is tens of ms, far inside the 0.25 s box even on a
  // loaded machine (128^3's came to 283 ms once under a parallel ctest and the baseline was skipped).
  GemmProblem p{{64, 64, 64, 1}, DType::f32, 1.0f, 0.0f};
  TuneOptions o;
  o.budget_s = 0.0;
  TuneResult r = tune_problem(device(), p, {&family_named("tiled")}, o);
  ASSERT_NE(r.best(), nullptr);
  EXPECT_TRUE(r.budget_exhausted);
  EXPECT_EQ(r.evaluated.size(), 1u);
  EXPECT_EQ(r.evaluated.size() + r.skipped + r.pruned.size(), 432u);
  EXPECT_GE(r.best()->measurement.samples_us.size(), 3u);
  // The baseline gets a tenth of the budget, at least 0.25 s: enough for this small problem's naive kernel.
  ASSERT_TRUE(r.baseline.has_value()) << r.baseline_skipped;
  EXPECT_EQ(r.baseline->measurement.disposition, Disposition::passed) << r.baseline->measurement.detail;
  EXPECT_EQ(r.baseline->measurement.samples_us.size(), 3u);
  // Not for a larger one (6 runs of 16 x the winner's run is seconds on lavapipe): skipped, saying why.
  GemmProblem larger{{512, 512, 512, 1}, DType::f32, 1.0f, 0.0f};
  TuneResult l = tune_problem(device(), larger, {&family_named("tiled")}, o);
  ASSERT_NE(l.best(), nullptr);
  EXPECT_FALSE(l.baseline.has_value());
  EXPECT_NE(l.baseline_skipped.find("x the best config's run"), std::string::npos) << l.baseline_skipped;
  // With the rate an earlier baseline of the run measured, the small problem's naive run is estimated from its FLOPs:
  // at 1 MFLOP/s it cannot fit, and the reason says where the estimate came from.
  o.naive_gflops = 1e-3;
  TuneResult slow = tune_problem(device(), p, {&family_named("tiled")}, o);
  EXPECT_FALSE(slow.baseline.has_value());
  EXPECT_NE(slow.baseline_skipped.find("its rate in an earlier baseline of this run"), std::string::npos)
      << slow.baseline_skipped;
}

TEST_F(Tuner, TheBudgetIsTheWholeTimeOfTheProblem) {
  // Hundreds of candidates in 2 s: the reference, the screening, finals that shrink to fit and the baseline's
  // tenth all come out of it (before, the reference and baseline were extra and 3 finalists always got 3 rounds).
  GemmProblem p{{384, 384, 384, 1}, DType::f32, 1.0f, 0.0f};
  TuneOptions o;
  o.budget_s = 2.0;
  TuneResult r = tune_problem(device(), p, {&family_named("tiled"), &family_named("splitk")}, o);
  ASSERT_NE(r.best(), nullptr);
  EXPECT_TRUE(r.budget_exhausted);
  // The one screened config that starts before the budget ends may overrun it by its build and runs (lavapipe
  // builds a large tile in up to a second), and the one finalist that always runs by its warm-up: the bound
  // allows the slowest such config and one warm-up.
  double slowest_s = 0.0;
  for (const EvaluatedConfig& e : r.evaluated)
    slowest_s = std::max(slowest_s, e.measurement.compile_ms * 1e-3 + 4 * e.measurement.median_us * 1e-6);
  EXPECT_LT(r.elapsed_s, 1.1 * o.budget_s + slowest_s + o.run.warmup_ns * 1e-9)
      << r.elapsed_s << " s, search " << r.search_s << " s, " << r.evaluated.size() << " screened, slowest "
      << slowest_s << " s";
}

TEST_F(Tuner, PipelinesBuiltTogetherVerifyAndReportTheirCompileTimeOnFirstUse) {
  GemmProblem p{{33, 40, 300, 1}, DType::f32, 1.0f, 0.0f};
  std::vector<std::pair<const KernelFamily*, Config>> configs;
  for (const KernelFamily* family : {&family_named("tiled"), &family_named("splitk")}) {
    SearchSpace s = build_search_space({family}, p, device().info());
    for (size_t i = 0; i < 3 && i < s.candidates.size(); ++i)
      configs.emplace_back(family, s.candidates[i * 7 % s.candidates.size()].config);
  }
  ASSERT_EQ(configs.size(), 6u);
  GemmRunner runner(device(), p, RunOptions{});
  runner.precompile(configs, 4);
  runner.precompile(configs, 4);  // already built: skipped
  for (const auto& [family, config] : configs) {
    const Measurement first = runner.evaluate(*family, config, 0, 0);
    EXPECT_EQ(first.disposition, Disposition::passed) << family->config_name(config, p.dtype) << ": " << first.detail;
    EXPECT_GT(first.compile_ms, 0.0);  // the build happened on a worker; its time is reported on first use
    EXPECT_EQ(runner.evaluate(*family, config, 0, 0).compile_ms, 0.0);
  }
}

TEST_F(Tuner, PipelineStatisticsAreRecordedExactlyWhereTheDeviceReportsThem) {
  // Split-k: the reduce pass's statistics come prefixed. lavapipe (Mesa 22.3) does not list
  // VK_KHR_pipeline_executable_properties, so there the measurement must carry none; NVIDIA's driver lists it.
  GemmProblem p{{33, 40, 300, 1}, DType::f32, 1.0f, 0.0f};
  SearchSpace s = build_search_space({&family_named("splitk")}, p, device().info());
  ASSERT_FALSE(s.candidates.empty());
  GemmRunner runner(device(), p, RunOptions{});
  const Measurement m = runner.evaluate(family_named("splitk"), s.candidates.front().config, 0, 1);
  ASSERT_EQ(m.disposition, Disposition::passed) << m.detail;
  if (!device().info().pipeline_statistics) {
    EXPECT_TRUE(m.pipeline_statistics.empty());
    return;
  }
  size_t main_pass = 0, reduce_pass = 0;
  for (const auto& [name, value] : m.pipeline_statistics) {
    EXPECT_FALSE(name.empty());
    EXPECT_GE(value, 0.0) << name;
    (name.rfind("reduce: ", 0) == 0 ? reduce_pass : main_pass) += 1;
  }
  EXPECT_GT(main_pass, 0u);
  EXPECT_GT(reduce_pass, 0u);
}

TEST_F(Tuner, OneOrSeveralCompileThreadsMeasureTheSameCandidates) {
  GemmProblem p{{4, 24, 40, 1}, DType::f32, 1.0f, 0.0f};
  std::vector<size_t> evaluated;
  for (unsigned threads : {1u, 3u}) {
    TuneOptions o;
    o.budget_s = 1e9;
    o.samples = 3;
    o.kernels = "fewrows_f32_cols8_*";
    o.compile_threads = threads;
    TuneResult r = tune_problem(device(), p, {&family_named("fewrows")}, o);
    EXPECT_EQ(r.failed(), 0u) << threads;
    ASSERT_NE(r.best(), nullptr);
    evaluated.push_back(r.evaluated.size());
  }
  EXPECT_EQ(evaluated[0], evaluated[1]);
  EXPECT_GT(evaluated[0], 3u);
}

TEST_F(Tuner, OneTimedRunIsVerifiedAndIsItsOnlySample) {
  // The baseline's timing where its runs are long: the verification run, then one run as the one sample.
  GemmProblem p{{96, 80, 72, 1}, DType::f32, 1.0f, 0.0f};
  GemmRunner runner(device(), p, RunOptions{});
  const KernelFamily& naive = family_named("naive");
  const SearchSpace s = build_search_space({&naive}, p, device().info());
  ASSERT_FALSE(s.candidates.empty());
  const Measurement m = runner.time_one_run(naive, s.candidates.front().config);
  EXPECT_EQ(m.disposition, Disposition::passed) << m.detail;
  ASSERT_EQ(m.samples_us.size(), 1u);
  EXPECT_EQ(m.runs_per_sample, 1u);
  EXPECT_GT(m.samples_us[0], 0.0);
  EXPECT_EQ(m.median_us, m.samples_us[0]);
}

TEST_F(Tuner, TheBaselineCanBeLeftOut) {
  GemmProblem p{{16, 16, 16, 1}, DType::f32, 1.0f, 0.0f};
  TuneOptions o;
  o.budget_s = 0.0;
  o.baseline = false;
  EXPECT_FALSE(tune_problem(device(), p, {&family_named("tiled")}, o).baseline.has_value());
}

}  // namespace gemmtune::test

namespace gemmtune::test {

TEST_F(Tuner, ReportsVariantsThatCannotServeTheProblem) {
  GemmProblem p{{20, 30, 40, 1}, DType::f32, 1.0f, 0.0f};
  TuneOptions o;
  o.budget_s = 0.0;
  TuneResult r = tune_problem(device(), p, kernel_families(), o);
  ASSERT_EQ(r.not_applicable.size(), 10u);
  EXPECT_EQ(r.not_applicable[0].variant, "splitk");
  EXPECT_EQ(r.not_applicable[1].variant, "fewrows");
  EXPECT_EQ(r.not_applicable[2].variant, "rowdot");
  EXPECT_EQ(r.not_applicable[3].variant, "rowmma");
  EXPECT_EQ(r.not_applicable[4].variant, "coopmat");
  EXPECT_EQ(r.not_applicable[5].variant, "coopmat2");
  EXPECT_EQ(r.not_applicable[6].variant, "bf16x6");   // no cooperative matrices on lavapipe
  EXPECT_EQ(r.not_applicable[7].variant, "qrowdot");  // f32 B: no blocks
  EXPECT_EQ(r.not_applicable[8].variant, "qrowdp");
  EXPECT_EQ(r.not_applicable[9].variant, "qrowmma");
  ASSERT_NE(r.best(), nullptr);
  EXPECT_EQ(r.best()->family->name, "tiled");
}

}  // namespace gemmtune::test
