// The search strategies, budgets, interleaved finals, the noise-aware choice, resume and interruption, all
// through the replay evaluator: recorded measurements and a virtual clock, no GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "core/error.hpp"
#include "kernels/registry.hpp"
#include "run/gemm_runner.hpp"
#include "tuner/evaluator.hpp"
#include "tuner/replay.hpp"
#include "tuner/tuner.hpp"

namespace gemmtune {
namespace {

/// `n` fewrows candidates in declaration order.
std::vector<Candidate> candidates(size_t n) {
  std::vector<Candidate> out;
  for (const Config& c : family_named("fewrows").all_configs()) {
    if (out.size() == n) break;
    out.push_back({&family_named("fewrows"), c, family_named("fewrows").config_name(c, DType::f32)});
  }
  return out;
}

/// Candidate i runs in `us[i]` microseconds, steadily.
std::map<std::string, RecordedConfig> steady(const std::vector<Candidate>& c, const std::vector<double>& us) {
  std::map<std::string, RecordedConfig> out;
  for (size_t i = 0; i < c.size(); ++i) out[c[i].name] = RecordedConfig{Disposition::passed, {us[i]}, 0.01};
  return out;
}

TuneResult search(const std::vector<Candidate>& c, ReplayEvaluator& ev, const TuneOptions& o) {
  TuneResult r;
  r.problem = GemmProblem{{4, 64, 64, 1}, DType::f32, 1.0f, 0.0f};
  run_search(r, c, ev, o);
  return r;
}

TuneOptions options(Strategy s, double budget_s = 1e9) {
  TuneOptions o;
  o.strategy = s;
  o.budget_s = budget_s;
  o.samples = 5;
  return o;
}

TEST(Search, ScreenPicksTheFastestAndSamplesFinalistsInInterleavedRounds) {
  auto c = candidates(8);
  ReplayEvaluator ev(steady(c, {50, 40, 28, 20, 60, 25, 70, 80}));
  TuneResult r = search(c, ev, options(Strategy::screen));
  EXPECT_EQ(ev.screened().size(), 8u);
  ASSERT_NE(r.best(), nullptr);
  EXPECT_EQ(r.best()->name, c[3].name);
  EXPECT_EQ(r.runner_up()->name, c[5].name);
  EXPECT_FALSE(r.tie);  // steady samples: CV 0, any margin counts
  EXPECT_NEAR(r.margin, 0.25, 1e-12);
  // Finalists 3, 5, 2 sampled in rounds: 3 5 2 3 5 2 ...
  ASSERT_EQ(ev.sampled().size(), 15u);
  const size_t rounds[3] = {3, 5, 2};
  for (size_t i = 0; i < ev.sampled().size(); ++i) EXPECT_EQ(ev.sampled()[i], c[rounds[i % 3]].name) << i;
  EXPECT_EQ(r.best()->measurement.samples_us.size(), 5u);
}

TEST(Search, TheFastestConfigOfAnotherFamilyWithin15PercentOfTheBestJoinsTheFinals) {
  std::vector<Candidate> c = candidates(5);  // fewrows: 20, 21, 22, 23, 24 us
  auto first_configs = [](const char* family, size_t n) {
    std::vector<Candidate> out;
    for (const Config& config : family_named(family).all_configs()) {
      if (out.size() == n) break;
      out.push_back({&family_named(family), config, family_named(family).config_name(config, DType::f32)});
    }
    return out;
  };
  for (const Candidate& r : first_configs("rowdot", 2)) c.push_back(r);  // 22.5 and 22.6: one family, one joins
  c.push_back(first_configs("tiled", 1).front());                        // 24: outside 1.15 x 20
  ReplayEvaluator ev(steady(c, {20, 21, 22, 23, 24, 22.5, 22.6, 24}));
  TuneResult r = search(c, ev, options(Strategy::screen));
  std::set<std::string> finalists;
  for (const EvaluatedConfig& e : r.evaluated)
    if (e.finalist) finalists.insert(e.name);
  EXPECT_EQ(finalists, (std::set<std::string>{c[0].name, c[1].name, c[2].name, c[5].name}));
  EXPECT_EQ(r.best()->name, c[0].name);
  // Exhaustive finals already hold every verified config.
  TuneResult all = search(c, ev, options(Strategy::exhaustive));
  EXPECT_EQ(size_t(std::count_if(all.evaluated.begin(), all.evaluated.end(),
                                 [](const EvaluatedConfig& e) { return e.finalist; })),
            c.size());
}

TEST(Search, AConfigWhoseFirstBatchIs1_5xTheBestSoFarIsTimedOnceAndOthersTakeThreeBatches) {
  auto c = candidates(4);
  std::map<std::string, RecordedConfig> recorded;
  recorded[c[0].name] = RecordedConfig{Disposition::passed, {20, 21, 19}, 0.01};
  recorded[c[1].name] = RecordedConfig{Disposition::passed, {30, 10, 10}, 0.01};    // 1.5x: cut, never seen at 10
  recorded[c[2].name] = RecordedConfig{Disposition::passed, {29.9, 29, 28}, 0.01};  // just inside
  recorded[c[3].name] = RecordedConfig{Disposition::passed, {25, 18, 18}, 0.01};
  TuneOptions o = options(Strategy::screen);
  o.finalists = 1;
  ReplayEvaluator ev(recorded);
  TuneResult r = search(c, ev, o);
  std::map<std::string, const EvaluatedConfig*> by_name;
  for (const EvaluatedConfig& e : r.evaluated) by_name[e.name] = &e;
  EXPECT_TRUE(by_name[c[1].name]->measurement.cut);
  EXPECT_EQ(by_name[c[1].name]->measurement.samples_us, std::vector<double>{30});
  EXPECT_FALSE(by_name[c[2].name]->measurement.cut);
  EXPECT_EQ(by_name[c[2].name]->measurement.samples_us.size(), 3u);
  EXPECT_DOUBLE_EQ(by_name[c[2].name]->measurement.median_us, 29);
  // Ranked by the median of its batches: 18 beats 20 though its first batch was 25.
  EXPECT_EQ(r.best()->name, c[3].name);
  // No cut at all with cut_factor 0.
  o.cut_factor = 0.0;
  ReplayEvaluator all(recorded);
  r = search(c, all, o);
  for (const EvaluatedConfig& e : r.evaluated) EXPECT_FALSE(e.measurement.cut) << e.name;
}

TEST(Search, ExhaustiveFinalistsWhoseFirstSampleIs1_5xTheBestTakeNoMoreSamples) {
  auto c = candidates(3);
  TuneOptions o = options(Strategy::exhaustive);
  ReplayEvaluator cut(steady(c, {10, 16, 14}));
  TuneResult r = search(c, cut, o);
  std::map<std::string, size_t> samples;
  for (const std::string& name : cut.sampled()) ++samples[name];
  EXPECT_EQ(samples[c[0].name], 5u);
  EXPECT_EQ(samples[c[1].name], 1u);  // 16 >= 1.5 x 10
  EXPECT_EQ(samples[c[2].name], 5u);
  EXPECT_EQ(r.best()->name, c[0].name);
}

TEST(Search, ACutFinalistIsNoRunnerUpEvenWhereTheWinnersMedianDriftedAboveItsOneSample) {
  // The winner's first final sample (10) cuts the other finalist (16 >= 1.5 x 10); the winner's later samples drift
  // to 40 (a device slowing down), above the cut one's single 16, which is still no runner-up, tie or margin.
  auto c = candidates(2);
  std::map<std::string, RecordedConfig> recorded;
  recorded[c[0].name] = RecordedConfig{Disposition::passed, {10, 40, 40, 40, 40}, 0.01};
  recorded[c[1].name] = RecordedConfig{Disposition::passed, {16}, 0.01};
  ReplayEvaluator ev(recorded);
  TuneResult r = search(c, ev, options(Strategy::exhaustive));
  ASSERT_NE(r.best(), nullptr);
  EXPECT_EQ(r.best()->name, c[0].name);
  EXPECT_DOUBLE_EQ(r.best()->measurement.median_us, 40);
  EXPECT_EQ(r.runner_up(), nullptr);
  EXPECT_FALSE(r.tie);
  EXPECT_EQ(r.margin, 0.0);
}

TEST(Search, EveryScreenedConfigCarriesItsCostAndTheResultItsRate) {
  auto c = candidates(4);
  ReplayEvaluator ev(steady(c, {50, 40, 30, 20}));  // 0.01 virtual s a screening
  TuneResult r = search(c, ev, options(Strategy::screen));
  EXPECT_EQ(r.screened, 4u);
  EXPECT_NEAR(r.screening_s, 0.04, 1e-9);
  EXPECT_NEAR(r.configs_per_s(), 100.0, 1e-6);
  EXPECT_NEAR(r.screening_cost.total_ms, 40.0, 1e-6);
  for (const EvaluatedConfig& e : r.evaluated) {
    if (!e.finalist) {
      EXPECT_NEAR(e.measurement.total_ms, 10.0, 1e-6) << e.name;
    }
  }
}

TEST(Search, AReplaysStartCostGoesToTheFirstScreeningWhicheverConfigItIs) {
  auto c = candidates(4);
  for (Strategy s : {Strategy::screen, Strategy::random}) {
    ReplayEvaluator ev(steady(c, {50, 40, 30, 20}));  // 0.01 virtual s a screening
    ev.set_start_cost(2.0);
    TuneResult r = search(c, ev, options(s));
    EXPECT_EQ(r.screened, 4u) << strategy_name(s);
    EXPECT_NEAR(r.screening_s, 2.04, 1e-9) << strategy_name(s);  // once, not once a config
  }
}

TEST(Search, AReplayedFinalistSamplesItsRecordedFinalsNotItsScreeningBatches) {
  // Screening batches 3 % slower than the finals, as a recorded tune's are: the finals replay the recorded finals
  // (taken with the screening batches first, a ground truth's finalists' spreads passed the 2.5 % between two of them,
  // and the tie went to the name that sorts first).
  auto c = candidates(2);
  std::map<std::string, RecordedConfig> recorded;
  recorded[c[0].name] = RecordedConfig{Disposition::passed, {23.84, 23.87, 23.82}, 0.01, {23.18, 23.17, 23.15, 23.18}};
  recorded[c[1].name] = RecordedConfig{Disposition::passed, {24.23, 24.22, 24.30}, 0.01, {23.76, 23.77, 23.75, 23.78}};
  ReplayEvaluator ev(recorded);
  TuneResult r = search(c, ev, options(Strategy::screen));
  ASSERT_NE(r.best(), nullptr);
  EXPECT_EQ(r.best()->name, c[0].name);
  EXPECT_FALSE(r.tie);
  EXPECT_NEAR(r.best()->measurement.median_us, 23.175, 0.01);
  // Screening still replays the first batches of samples_us.
  const auto screened = std::find_if(r.evaluated.begin(), r.evaluated.end(),
                                     [&](const EvaluatedConfig& e) { return e.name == c[1].name; });
  ASSERT_NE(screened, r.evaluated.end());
  EXPECT_NEAR(screened->measurement.screen_us, 24.23, 0.01);
}

TEST(Search, PipelinesAreBuiltInBatchesOfTheCompileThreadsAheadOfScreeningAndNeverForKnownConfigs) {
  auto c = candidates(7);
  TuneOptions o = options(Strategy::screen);
  o.compile_threads = 3;
  o.known[c[2].name] = Measurement{};  // resumed: measured before, so never built again
  o.known[c[2].name].samples_us = {10};
  o.known[c[2].name].median_us = 10;
  {
    ReplayEvaluator ev(steady(c, {50, 40, 30, 20, 60, 25, 70}));
    search(c, ev, o);
    using Batch = std::vector<std::string>;
    // One config first (the build-time estimate; free here), then batches of 3.
    EXPECT_EQ(ev.precompiled(),
              (std::vector<Batch>{{c[0].name}, {c[1].name, c[3].name, c[4].name}, {c[5].name, c[6].name}}));
    // Each batch is built before the first of its configs is screened.
    EXPECT_EQ(ev.screened().front(), c[0].name);
  }
  o.compile_threads = 1;  // one at a time: the runner builds each pipeline as its config comes up
  ReplayEvaluator ev(steady(c, {50, 40, 30, 20, 60, 25, 70}));
  search(c, ev, o);
  EXPECT_TRUE(ev.precompiled().empty());
}

TEST(Search, BuildBatchesShrinkToWhatIsLeftOfTheScreeningBudget) {
  // A driver that builds one pipeline at a time (1 s a config): one config first for the estimate, then batches
  // sized to the screening budget left (8.74 s of 10: the finals' reserve is 2 x 3 x 0.21 s), so no build is
  // paid for that screening could not measure.
  auto c = candidates(20);
  TuneOptions o = options(Strategy::screen, 10.0);
  o.compile_threads = 4;
  ReplayEvaluator ev(steady(c, std::vector<double>(20, 10.0)), 1.0);
  TuneResult r = search(c, ev, o);
  std::vector<size_t> sizes;
  for (const auto& batch : ev.precompiled()) sizes.push_back(batch.size());
  // 1 built and screened (1.01 s): 7.73 s left, 4 (the most); 3.69 s left, 3; then 0.66 s left: the next
  // config's build (1 s) would not fit, so screening ends there instead of building it.
  EXPECT_EQ(sizes, (std::vector<size_t>{1, 4, 3}));
  EXPECT_EQ(ev.screened().size(), 8u);
  EXPECT_TRUE(r.budget_exhausted);
  EXPECT_EQ(r.skipped, 12u);
  // Free builds (a cache hit, or a driver that compiles at first dispatch) keep every batch after the first full.
  ReplayEvaluator free_builds(steady(c, std::vector<double>(20, 10.0)));
  search(c, free_builds, o);
  ASSERT_GE(free_builds.precompiled().size(), 2u);
  EXPECT_EQ(free_builds.precompiled()[0].size(), 1u);
  for (size_t b = 1; b + 1 < free_builds.precompiled().size(); ++b) EXPECT_EQ(free_builds.precompiled()[b].size(), 4u);
}

TEST(Search, EachProblemOfAShapeGetsAnEqualShareOfWhatIsLeftButAtLeastHalfItsShare) {
  // 30 s for three dtypes: 10 s each while they keep to it.
  EXPECT_DOUBLE_EQ(problem_budget_s(30, 30, 3, 0), 10.0);
  EXPECT_DOUBLE_EQ(problem_budget_s(30, 20, 3, 1), 10.0);
  // The first took 5 s: the other two share the 25 s left.
  EXPECT_DOUBLE_EQ(problem_budget_s(30, 25, 3, 1), 12.5);
  // The first two overran to 28 s: the last still gets half of its 10 s share, not the 2 s left.
  EXPECT_DOUBLE_EQ(problem_budget_s(30, 2, 3, 2), 5.0);
  EXPECT_DOUBLE_EQ(problem_budget_s(30, -4, 3, 2), 5.0);
}

TEST(Search, AGpuWarmUpRunsOnUntilItsRunTimeHoldsFor50MsAtMostFourTimesItsTarget) {
  // The H200's clocks coming back from 345 MHz after a 4.8 s build: 8 ms batches, each run faster than the last
  // until 520 us; two batches in a row agree within 3 % while it climbs, which must not count.
  WarmUp ramp{2, 100e6, true};
  for (double run_us : {2559.0, 2540.0, 2520.0, 2400.0, 2100.0, 1400.0, 900.0, 700.0, 600.0, 530.0}) {
    ramp.add_batch(run_us * 1e3, uint32_t(8e6 / (run_us * 1e3)) + 1);
    EXPECT_FALSE(ramp.done()) << run_us;
  }
  // Then steady at 520 us: done once a batch 50 ms after the last comparison agrees with it.
  int steady_batches = 0;
  while (!ramp.done() && steady_batches < 100) {
    ramp.add_batch(520e3, 16);
    ++steady_batches;
  }
  EXPECT_TRUE(ramp.done());
  // At least one 50 ms window of steady runs (the climb's last batches are further than 3 % off), at most two.
  EXPECT_GE(steady_batches * 16 * 520e3, 50e6);
  EXPECT_LE(steady_batches * 16 * 520e3, 2 * 50e6 + 8.4e6);
  EXPECT_LT(ramp.warm_ns, 4 * 100e6);  // steady before the cap
  // Steady runs from the start still wait for the target and the batch count.
  WarmUp early{3, 200e6, true};
  early.add_batch(500e3, 16);
  early.add_batch(500e3, 16);
  EXPECT_FALSE(early.done());
  // Never steady (the clocks keep moving): it stops at 4x the target.
  WarmUp moving{0, 20e6, true};
  double run_ns = 1e6;
  while (!moving.done() && moving.batches_run < 1000) moving.add_batch(run_ns *= 0.98, 10);
  EXPECT_GE(moving.warm_ns, 80e6);
  EXPECT_LT(moving.warm_ns, 80e6 + 10e6);
  // CPU devices (no clocks to wait for): the target and the count alone, as before.
  WarmUp cpu{1, 20e6, false};
  cpu.add_batch(30e6, 1);
  EXPECT_TRUE(cpu.done());
}

TEST(Search, ScreeningWarmsGpusUpForThreeTimesTheirIdleAndCpuDevicesFor20Ms) {
  RunOptions o;
  // GPUs: 3x the idle, 5 ms to 1 s (the H200 screened 2-4x slow with at most 200 ms after seconds of builds).
  for (VkPhysicalDeviceType gpu : {VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU}) {
    EXPECT_DOUBLE_EQ(screen_warmup_target_ns(o, gpu, 0.5e6), 5e6);
    EXPECT_DOUBLE_EQ(screen_warmup_target_ns(o, gpu, 4e6), 12e6);
    EXPECT_DOUBLE_EQ(screen_warmup_target_ns(o, gpu, 100e6), 300e6);
    EXPECT_DOUBLE_EQ(screen_warmup_target_ns(o, gpu, 5e9), 1e9);
  }
  // CPU devices: 20 ms whatever the idle (no clocks; every core-second of warm-up is one the builds lose).
  for (double idle : {1e6, 70e6, 5e9})
    EXPECT_DOUBLE_EQ(screen_warmup_target_ns(o, VK_PHYSICAL_DEVICE_TYPE_CPU, idle), 20e6);
  // --screen-warmup: the same on every device, 0 included.
  for (double fixed : {0.0, 1.5e9}) {
    o.screen_warmup_ns = fixed;
    EXPECT_DOUBLE_EQ(screen_warmup_target_ns(o, VK_PHYSICAL_DEVICE_TYPE_CPU, 70e6), fixed);
    EXPECT_DOUBLE_EQ(screen_warmup_target_ns(o, VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, 70e6), fixed);
  }
}

/// `n` candidates that screen in `cost_s` each (virtual time) and run in `us` each, steadily; all refused where
/// `refused`.
std::map<std::string, RecordedConfig> costly(const std::vector<Candidate>& c, double us, double cost_s,
                                             bool refused = false) {
  auto rec = steady(c, std::vector<double>(c.size(), us));
  for (auto& [name, r] : rec) {
    r.screen_cost_s = cost_s;
    if (refused) r.disposition = Disposition::incorrect;
  }
  return rec;
}

TEST(Search, ScreeningEndsWhereTheNextConfigWouldEndInTheFinalsReserveAndCountsTheSkipped) {
  auto c = candidates(20);
  ReplayEvaluator ev(costly(c, 10.0, 1.0));
  TuneResult r = search(c, ev, options(Strategy::screen, 10.0));
  // Three 10 us finalists: 0.2 s of warm-up and 5 samples of 2 ms each, twice over: 1.26 s kept of 10. 8 s spent
  // after the 8th config; a 9th would end past 8.74.
  EXPECT_EQ(ev.screened().size(), 8u);
  EXPECT_TRUE(r.budget_exhausted);
  EXPECT_EQ(r.skipped, 12u);
  ASSERT_NE(r.best(), nullptr);
  // The replay prepares a finalist in its screening cost (1 s), more than the estimate: the minimum of samples.
  EXPECT_EQ(r.best()->measurement.samples_us.size(), 3u);
}

TEST(Search, ScreeningKeepsThreeQuartersWhereTheFinalsWouldCostMoreOrNothingVerified) {
  auto c = candidates(20);
  // 100 ms runs: finalists of 0.8 s each, 4.8 s twice over: more than the quarter, so the screen ends at 7.5 s.
  ReplayEvaluator slow(costly(c, 1e5, 1.0));
  search(c, slow, options(Strategy::screen, 10.0));
  EXPECT_EQ(slow.screened().size(), 7u);
  // Nothing verified: no estimate, the quarter stays.
  ReplayEvaluator refused(costly(c, 10.0, 1.0, true));
  search(c, refused, options(Strategy::screen, 10.0));
  EXPECT_EQ(refused.screened().size(), 7u);
}

TEST(Search, TheBaselinesBoxShrinksToTwiceItsEstimateOnceAConfigIsScreened) {
  auto c = candidates(20);
  TuneOptions o = options(Strategy::screen, 10.0);
  o.baseline_box_s = 1.0;
  // 10 us: the baseline's estimate is 6 x 16 x 10 us + 20 ms, kept twice (0.042 s) instead of the 1 s box:
  // the screen ends at 10 - 1.26 - 0.042 s, after 8 configs.
  ReplayEvaluator fast(costly(c, 10.0, 1.0));
  search(c, fast, o);
  EXPECT_EQ(fast.screened().size(), 8u);
  // Before an estimate, 3/4 of what the box leaves (6.75 s): 6 configs, the 7th would end at 7.
  ReplayEvaluator refused(costly(c, 10.0, 1.0, true));
  search(c, refused, o);
  EXPECT_EQ(refused.screened().size(), 6u);
}

TEST(Search, TheNaiveRateOfAnEarlierBaselineKeepsTheBoxWhereItsRunWouldNotFit) {
  // The estimate from an earlier baseline's rate: the longer of 16 x the best run and the FLOPs at that rate.
  EXPECT_DOUBLE_EQ(naive_run_estimate_us(10.0, 2e9, 0.0), 160.0);
  EXPECT_DOUBLE_EQ(naive_run_estimate_us(10.0, 2e9, 1000.0), 2000.0);
  EXPECT_DOUBLE_EQ(naive_run_estimate_us(10.0, 2e6, 1000.0), 160.0);
  // A run of 50 ms or more: its verification and one sample.
  EXPECT_DOUBLE_EQ(baseline_estimate_s(100'000.0, 0.5), 0.2 + 0.02 + 0.5);
  EXPECT_DOUBLE_EQ(baseline_estimate_s(1'000.0, 0.0), 0.006 + 0.02);
  auto c = candidates(20);
  TuneOptions o = options(Strategy::screen, 10.0);
  o.baseline_box_s = 1.0;
  o.naive_gflops = 1e-9;  // far slower than 16 x the best run: the whole box stays kept, one config fewer than 8
  ReplayEvaluator fast(costly(c, 10.0, 1.0));
  search(c, fast, o);
  EXPECT_EQ(fast.screened().size(), 7u);
}

TEST(Search, RandomVisitsEachCandidateOnceInASeededOrder) {
  auto c = candidates(30);
  std::vector<double> us(30);
  for (size_t i = 0; i < us.size(); ++i) us[i] = 100.0 - double(i);
  auto order = [&](uint64_t seed) {
    ReplayEvaluator ev(steady(c, us));
    TuneOptions o = options(Strategy::random);
    o.run.seed = seed;
    TuneResult r = search(c, ev, o);
    EXPECT_EQ(r.best()->name, c[29].name);  // a whole sweep finds the fastest whatever the order
    return ev.screened();
  };
  const auto a = order(1), b = order(1), d = order(2);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, d);
  EXPECT_EQ(std::set<std::string>(a.begin(), a.end()).size(), 30u);
  std::vector<std::string> declared;
  for (const Candidate& x : c) declared.push_back(x.name);
  EXPECT_NE(a, declared);
}

TEST(Search, ExhaustiveSamplesEveryVerifiedCandidateAndNeverPicksAFailure) {
  auto c = candidates(6);
  auto rec = steady(c, {30, 10, 20, 40, 50, 60});
  rec[c[1].name].disposition = Disposition::incorrect;  // the fastest is wrong
  ReplayEvaluator ev(rec);
  TuneResult r = search(c, ev, options(Strategy::exhaustive));
  size_t finalists = 0;
  for (const EvaluatedConfig& e : r.evaluated) finalists += e.finalist;
  EXPECT_EQ(finalists, 5u);
  EXPECT_EQ(r.best()->name, c[2].name);
  EXPECT_EQ(r.failed(), 1u);
}

TEST(Search, AWinnerInsideTheNoiseBandIsATieAndTheSimplerConfigWins) {
  auto c = candidates(2);
  // c[0] uses fewer resources than c[1] (same shared memory per invocation, fewer invocations), and is 1 % slower.
  ASSERT_LE(family_named("fewrows").shared_bytes(c[0].config, DType::f32),
            family_named("fewrows").shared_bytes(c[1].config, DType::f32));
  std::map<std::string, RecordedConfig> rec;
  rec[c[0].name] = {Disposition::passed, {101, 96, 106, 101, 101}, 0.01};
  rec[c[1].name] = {Disposition::passed, {100, 95, 105, 100, 100}, 0.01};
  {
    ReplayEvaluator ev(rec);
    TuneResult r = search(c, ev, options(Strategy::exhaustive));
    EXPECT_TRUE(r.tie);
    EXPECT_GT(r.noise_band, 0.05);
    EXPECT_EQ(r.best()->name, c[0].name);
    EXPECT_LT(r.margin, 0.0);  // the runner-up is the faster one
  }
  rec[c[0].name].samples_us = {101};  // steady: no noise, 1 % is a real difference
  rec[c[1].name].samples_us = {100};
  ReplayEvaluator ev(rec);
  TuneResult r = search(c, ev, options(Strategy::exhaustive));
  EXPECT_FALSE(r.tie);
  EXPECT_EQ(r.best()->name, c[1].name);
  EXPECT_NEAR(r.margin, 0.01, 1e-12);
}

TEST(Search, KnownResultsAreNotMeasuredAgainAndNotJournaledTwice) {
  auto c = candidates(6);
  ReplayEvaluator ev(steady(c, {30, 10, 20, 40, 50, 60}));
  TuneOptions o = options(Strategy::screen);
  Measurement m;
  m.samples_us = {5.0};
  m.summarize(0.0);
  o.known[c[0].name] = m;  // from a journal: the fastest of all
  o.known[c[4].name] = m;
  std::vector<std::string> journaled;
  o.on_evaluated = [&](const EvaluatedConfig& e, const char* phase) {
    journaled.push_back(std::string(phase) + " " + e.name);
  };
  TuneResult r = search(c, ev, o);
  EXPECT_EQ(r.resumed, 2u);
  EXPECT_EQ(ev.screened().size(), 4u);
  EXPECT_EQ(std::count(ev.screened().begin(), ev.screened().end(), c[0].name), 0);
  EXPECT_EQ(std::count(journaled.begin(), journaled.end(), "screen " + c[0].name), 0);
  EXPECT_EQ(std::count(journaled.begin(), journaled.end(), "final " + c[0].name), 1);  // finals are measured anew
}

TEST(Search, StopEndsAtOnceWithTheBestScreened) {
  auto c = candidates(10);
  ReplayEvaluator ev(steady(c, {30, 10, 20, 40, 50, 60, 5, 1, 2, 3}));
  TuneOptions o = options(Strategy::screen);
  std::atomic<bool> stop{false};
  o.stop = &stop;
  size_t seen = 0;
  o.on_evaluated = [&](const EvaluatedConfig&, const char*) { stop = ++seen == 3; };
  TuneResult r = search(c, ev, o);
  EXPECT_TRUE(r.interrupted);
  EXPECT_EQ(r.skipped, 7u);
  EXPECT_TRUE(ev.sampled().empty());
  ASSERT_NE(r.best(), nullptr);
  EXPECT_EQ(r.best()->name, c[1].name);
  EXPECT_EQ(r.runner_up(), nullptr);
}

TEST(Search, StrategyNamesParseAndBadOnesAreUsageErrors) {
  EXPECT_EQ(parse_strategy("random", "--strategy"), Strategy::random);
  EXPECT_EQ(std::string(strategy_name(parse_strategy("exhaustive", "--strategy"))), "exhaustive");
  try {
    parse_strategy("greedy", "--strategy");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_NE(std::string(e.what()).find("--strategy"), std::string::npos);
  }
}

}  // namespace
}  // namespace gemmtune
