// Screening strategies (tuner/strategy.hpp) on synthetic landscapes, the seeds the search puts first, and the
// table's similar winners they come from. No GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "kernels/registry.hpp"
#include "report/lookup.hpp"
#include "tuner/replay.hpp"
#include "tuner/strategy.hpp"
#include "tuner/tuner.hpp"

namespace gemmtune {
namespace {

/// Every tiled and split-k f32 config, in the screening order of a 1024^3 problem: two families taking turns.
std::vector<Candidate> two_families() {
  std::vector<Candidate> out;
  const GemmProblem problem{{1024, 1024, 1024, 1}, DType::f32, 1.0f, 0.0f};
  for (const KernelFamily* f : {&family_named("tiled"), &family_named("splitk")}) {
    for (const Config& c : f->all_configs())
      if (f->sweeps(c, problem)) out.push_back({f, c, f->config_name(c, DType::f32)});
  }
  order_for_screening(out, problem);
  return out;
}

/// Every candidate verified at 10 us a run, 0.01 s a screening.
std::map<std::string, RecordedConfig> all_at_10us(const std::vector<Candidate>& c) {
  std::map<std::string, RecordedConfig> out;
  for (const Candidate& x : c) out[x.name] = RecordedConfig{Disposition::passed, {10.0}, 0.01};
  return out;
}

/// The search over `c` for a 64^3 f32 problem.
TuneResult search_64(const std::vector<Candidate>& c, Evaluator& ev, const TuneOptions& o) {
  TuneResult r;
  r.problem = GemmProblem{{64, 64, 64, 1}, DType::f32, 1.0f, 0.0f};
  run_search(r, c, ev, o);
  return r;
}

/// A smooth landscape: the further each parameter's value from the optimum's (in doublings), the slower; other
/// families 10x slower.
struct Landscape {
  const std::vector<Candidate>& c;
  size_t optimum;
  double us(size_t i) const {
    if (c[i].family != c[optimum].family) return 1000.0;
    double t = 100.0;
    for (size_t p = 0; p < c[i].config.values.size(); ++p) {
      const double a = c[i].config.values[p].second, b = c[optimum].config.values[p].second;
      t += 10.0 * std::abs(std::log2(1.0 + a) - std::log2(1.0 + b));  // values of 0 too (prepass0)
    }
    return t;
  }
  Measurement measured(size_t i) const {
    Measurement m;
    m.samples_us = {us(i)};
    m.summarize(0.0);
    return m;
  }
};

/// Picks until the optimum is given: how many it took.
size_t picks_to_optimum(ScreeningStrategy& order, const Landscape& land) {
  for (size_t picks = 1;; ++picks) {
    const size_t i = order.next();
    if (i == ScreeningStrategy::kNone) return SIZE_MAX;
    if (i == land.optimum) return picks;
    order.observe(i, land.measured(i));
  }
}
}  // namespace

TEST(Strategy, ThePriorOrderIsTheCandidatesOrderAndUpcomingPredictsIt) {
  auto order = prior_order(5);
  EXPECT_EQ(order->upcoming(3), (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(order->next(), 0u);
  EXPECT_EQ(order->upcoming(9), (std::vector<size_t>{1, 2, 3, 4}));
  for (size_t i = 1; i < 5; ++i) EXPECT_EQ(order->next(), i);
  EXPECT_EQ(order->next(), ScreeningStrategy::kNone);
}

TEST(Strategy, TheNeighbourhoodOrderFindsAnOptimumLateInThePriorInAFractionOfThePicks) {
  const std::vector<Candidate> c = two_families();
  ASSERT_GT(c.size(), 200u);
  for (size_t optimum : {c.size() / 3, c.size() / 2, c.size() - 7}) {
    const Landscape land{c, optimum};
    auto adaptive = neighbourhood_order(c, 12);
    const size_t picks = picks_to_optimum(*adaptive, land);
    EXPECT_LT(picks, optimum / 4) << c[optimum].name << ": " << picks << " picks, the prior takes " << optimum + 1;
  }
}

TEST(Strategy, TheNeighbourhoodOrderExploresThePriorFirstAndKeepsEveryFourthPickForIt) {
  const std::vector<Candidate> c = two_families();
  const Landscape land{c, c.size() / 2};
  auto order = neighbourhood_order(c, 12);
  std::vector<size_t> given;
  for (size_t k = 0; k < 40; ++k) {
    const size_t i = order->next();
    given.push_back(i);
    order->observe(i, land.measured(i));
  }
  for (size_t k = 0; k < 12; ++k) EXPECT_EQ(given[k], k);
  // After the exploration, picks 15, 19, ... (every fourth) are the prior's next not yet given.
  size_t prior_next = 12;
  for (size_t k = 12; k < given.size(); ++k) {
    if ((k - 12) % 4 != 3) continue;
    while (std::find(given.begin(), given.begin() + long(k), prior_next) != given.begin() + long(k)) ++prior_next;
    EXPECT_EQ(given[k], prior_next) << "pick " << k;
  }
  // No candidate twice.
  std::vector<size_t> sorted = given;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
}

TEST(Strategy, UpcomingIsWhatNextGivesWhenNothingMoreIsObserved) {
  const std::vector<Candidate> c = two_families();
  const Landscape land{c, c.size() / 2};
  auto order = neighbourhood_order(c, 4);
  for (size_t k = 0; k < 10; ++k) {
    const size_t i = order->next();
    order->observe(i, land.measured(i));
  }
  const std::vector<size_t> predicted = order->upcoming(8);
  ASSERT_EQ(predicted.size(), 8u);
  for (size_t k = 0; k < 8; ++k) EXPECT_EQ(order->next(), predicted[k]);
}

TEST(Strategy, ACandidateTakenOutOfTurnIsNeverGivenAgain) {
  const std::vector<Candidate> c = two_families();
  const Landscape land{c, c.size() / 2};
  std::vector<std::unique_ptr<ScreeningStrategy>> orders;
  orders.push_back(prior_order(c.size()));
  orders.push_back(neighbourhood_order(c, 4));
  for (auto& order : orders) {
    std::vector<size_t> given;
    for (size_t k = 0; k < 40; ++k) {
      const std::vector<size_t> up = order->upcoming(6);
      ASSERT_EQ(up.size(), 6u);
      size_t i = up[0];
      if (k % 3 == 1) {
        i = up[4];  // ready before the four ahead of it
        order->take(i);
      } else {
        EXPECT_EQ(order->next(), i);
      }
      given.push_back(i);
      const std::vector<size_t> after = order->upcoming(6);
      EXPECT_EQ(std::count(after.begin(), after.end(), i), 0);
      order->observe(i, land.measured(i));
    }
    for (size_t i = order->next(); i != ScreeningStrategy::kNone; i = order->next()) given.push_back(i);
    std::sort(given.begin(), given.end());
    EXPECT_EQ(given.size(), c.size());  // each candidate once, the ones taken included
    EXPECT_EQ(std::adjacent_find(given.begin(), given.end()), given.end());
  }
}

/// A replay whose builds finish out of order: first_ready() says the last of each window is built.
class LastReadyEvaluator : public ReplayEvaluator {
 public:
  using ReplayEvaluator::ReplayEvaluator;
  size_t builds_ahead() const override { return 3; }
  size_t first_ready(const std::vector<const Candidate*>& next, double) override { return next.size() - 1; }
};

/// A replay whose workers never finish a build in time: first_ready() waits as long as it is allowed.
class StuckWorkersEvaluator : public ReplayEvaluator {
 public:
  using ReplayEvaluator::ReplayEvaluator;
  size_t builds_ahead() const override { return 3; }
  size_t first_ready(const std::vector<const Candidate*>&, double max_wait_s) override {
    advance(std::min(max_wait_s, 10.0));
    return 0;
  }
};

TEST(Strategy, WaitsForBuildsUnderWayEndWithTheScreening) {
  std::vector<Candidate> c = two_families();
  const std::map<std::string, RecordedConfig> recorded = all_at_10us(c);
  StuckWorkersEvaluator ev(recorded);
  TuneOptions o;
  o.budget_s = 2.0;
  TuneResult r = search_64(c, ev, o);
  // Waits end where the screening's share ends, so the search keeps its budget (the finals' samples and the one
  // config begun before the end are the allowed overrun); the first config is screened however long it waited.
  EXPECT_LE(ev.now_s(), o.budget_s + 0.1) << ev.screened().size() << " screened";
  EXPECT_GE(ev.screened().size(), 1u);
  EXPECT_TRUE(r.budget_exhausted);
}

TEST(Strategy, WithBuildsAheadTheSearchScreensWhatIsBuiltFirst) {
  std::vector<Candidate> c = two_families();
  c.resize(9);
  const std::map<std::string, RecordedConfig> recorded = all_at_10us(c);
  LastReadyEvaluator ev(recorded);
  TuneOptions o;
  o.budget_s = 1e9;
  search_64(c, ev, o);
  // Each window is the prior's next three not yet given and the last of it goes, until one is left: the prior's
  // first, never built before the others here, goes last (it is owed a screen, not the first turn).
  const std::vector<std::string> expected = {c[2].name, c[3].name, c[4].name, c[5].name, c[6].name,
                                             c[7].name, c[8].name, c[1].name, c[0].name};
  EXPECT_EQ(ev.screened(), expected);
}

TEST(Strategy, WhereNoTimeIsLeftTheOneConfigScreenedIsThePriorsFirstNotTheFirstBuilt) {
  std::vector<Candidate> c = two_families();
  const std::map<std::string, RecordedConfig> recorded = all_at_10us(c);
  for (Strategy s : {Strategy::screen, Strategy::adaptive}) {
    LastReadyEvaluator ev(recorded);
    TuneOptions o;
    o.strategy = s;
    o.budget_s = 0.0;  // the problem's preparation took it all
    search_64(c, ev, o);
    ASSERT_EQ(ev.screened().size(), 1u) << strategy_name(s);
    EXPECT_EQ(ev.screened()[0], c[0].name) << strategy_name(s);
  }
}

/// A replay whose workers build every config at once but the prior's first (`slow`), which is built at `ready_s` on
/// the clock: screening it waits for the rest of its build.
class SlowFirstBuildEvaluator : public ReplayEvaluator {
 public:
  SlowFirstBuildEvaluator(std::map<std::string, RecordedConfig> recorded, std::string slow, double ready_s)
      : ReplayEvaluator(std::move(recorded)), slow_(std::move(slow)), ready_s_(ready_s) {}
  size_t builds_ahead() const override { return 3; }
  size_t first_ready(const std::vector<const Candidate*>& next, double) override {
    return next.front()->name == slow_ && now_s() < ready_s_ && next.size() > 1 ? 1 : 0;
  }
  Measurement screen(const Candidate& c, double stop_above_us) override {
    if (c.name == slow_ && now_s() < ready_s_) advance(ready_s_ - now_s());
    return ReplayEvaluator::screen(c, stop_above_us);
  }

 private:
  std::string slow_;
  double ready_s_;
};

TEST(Strategy, ASlowFirstBuildLetsBuiltConfigsGoAndThePriorsFirstIsStillScreened) {
  const std::vector<Candidate> c = two_families();
  const std::map<std::string, RecordedConfig> recorded = all_at_10us(c);
  for (Strategy s : {Strategy::screen, Strategy::adaptive}) {
    // Built at 0.5 s, inside a 2-s budget: the configs built go meanwhile (0.01 s each), then it in its turn.
    SlowFirstBuildEvaluator within(recorded, c[0].name, 0.5);
    TuneOptions o;
    o.strategy = s;
    o.budget_s = 2.0;
    search_64(c, within, o);
    const std::vector<std::string>& order = within.screened();
    const auto at = std::find(order.begin(), order.end(), c[0].name);
    ASSERT_NE(at, order.end()) << strategy_name(s);
    EXPECT_GE(at - order.begin(), 40) << strategy_name(s);  // about 50 configs fit before 0.5 s
    EXPECT_LT(size_t(at - order.begin()) + 1, order.size()) << strategy_name(s);
    // Built at 5 s, past the 1-s budget: the configs built fill the share, and it goes instead of the one that
    // would not fit, waiting for its build (as the first config always did).
    SlowFirstBuildEvaluator past(recorded, c[0].name, 5.0);
    o.budget_s = 1.0;
    const TuneResult r = search_64(c, past, o);
    ASSERT_GE(past.screened().size(), 10u) << strategy_name(s);
    EXPECT_NE(past.screened().front(), c[0].name) << strategy_name(s);
    EXPECT_EQ(past.screened().back(), c[0].name) << strategy_name(s);
    EXPECT_EQ(std::count(past.screened().begin(), past.screened().end(), c[0].name), 1) << strategy_name(s);
    EXPECT_TRUE(r.budget_exhausted) << strategy_name(s);
    EXPECT_NE(r.best(), nullptr) << strategy_name(s);
  }
}

TEST(Strategy, FailedAndCutConfigsProposeNoNeighbours) {
  const std::vector<Candidate> c = two_families();
  auto order = neighbourhood_order(c, 2);
  for (size_t k = 0; k < 30; ++k) {
    const size_t i = order->next();
    EXPECT_EQ(i, k);  // nothing to learn from: the prior's order throughout
    Measurement m;
    if (k % 2) {
      m.disposition = Disposition::incorrect;
    } else {
      m.samples_us = {50.0};
      m.summarize(0.0);
      m.cut = true;
    }
    order->observe(i, m);
  }
}

TEST(Strategy, SeedsAreScreenedFirstInTheirOrderBetweenThePriorsPicksUpToTheLimitAndUnknownNamesTakeNoPlace) {
  std::vector<Candidate> c = two_families();
  c.resize(20);
  const std::map<std::string, RecordedConfig> recorded = all_at_10us(c);
  for (Strategy s : {Strategy::screen, Strategy::adaptive, Strategy::random}) {
    ReplayEvaluator ev(recorded);
    TuneOptions o;
    o.strategy = s;
    o.budget_s = 1e9;
    o.seeds = {c[17].name, "no_such_config", c[5].name, c[9].name};
    o.max_seeds = 2;  // the unknown name takes no place: c[5] is the second seed, c[9] none
    search_64(c, ev, o);
    ASSERT_EQ(ev.screened().size(), 20u) << strategy_name(s);
    EXPECT_EQ(ev.screened()[0], c[17].name) << strategy_name(s);
    EXPECT_EQ(ev.screened()[2], c[5].name) << strategy_name(s);
    if (s != Strategy::random) {  // the prior's first two picks between and after the seeds
      EXPECT_EQ(ev.screened()[1], c[0].name) << strategy_name(s);
      EXPECT_EQ(ev.screened()[3], c[1].name) << strategy_name(s);
      EXPECT_EQ(ev.screened()[4], c[2].name) << strategy_name(s);  // not c[9]: the seeds stop at two
    }
  }
  EXPECT_EQ(parse_strategy("adaptive", "--strategy"), Strategy::adaptive);
}

TEST(Strategy, FirstScreenedNamesWhatTheSearchScreensFirstWithSeedsAndWithoutTheJournalsConfigs) {
  std::vector<Candidate> c = two_families();
  c.resize(20);
  const std::map<std::string, RecordedConfig> recorded = all_at_10us(c);
  for (Strategy s : {Strategy::screen, Strategy::adaptive, Strategy::random}) {
    TuneOptions o;
    o.strategy = s;
    o.budget_s = 1e9;
    o.seeds = {c[11].name, c[4].name};
    o.known[c[0].name].samples_us = {10};  // resumed from the journal: never screened again
    o.known[c[0].name].median_us = 10;
    const std::vector<Candidate> first = first_screened(c, o, 5);
    ASSERT_EQ(first.size(), 5u) << strategy_name(s);
    ReplayEvaluator ev(recorded);
    search_64(c, ev, o);
    ASSERT_GE(ev.screened().size(), 5u) << strategy_name(s);
    for (size_t i = 0; i < first.size(); ++i)
      EXPECT_EQ(first[i].name, ev.screened()[i]) << strategy_name(s) << " " << i;
    EXPECT_EQ(first[0].name, c[11].name) << strategy_name(s);
  }
}

TEST(SimilarWinners, TheNearestEntriesWinnersFirstThenRunnersUpThenFamilyBestsOtherLayoutsFurtherEachNameOnce) {
  TuningTable t;
  auto entry = [](uint64_t m, uint64_t n, uint64_t k, const std::string& dtype, const std::string& layout,
                  const std::string& best, const std::string& second) {
    TableEntry e;
    e.m = m, e.n = n, e.k = k, e.dtype = dtype, e.layout = layout;
    e.best = ConfigResult{};
    e.best->name = best;
    if (!second.empty()) {
      e.runner_up = ConfigResult{};
      e.runner_up->name = second;
    }
    e.variant_best = {VariantBest{"tiled", best}, VariantBest{"splitk", "splitk_" + best}};
    return e;
  };
  t.entries.push_back(entry(4096, 4096, 4096, "f16", "nn", "far", ""));
  t.entries.push_back(entry(1000, 1000, 1000, "f16", "nt", "other_layout", ""));
  t.entries.push_back(entry(1024, 1024, 1024, "f16", "nn", "near", "near2"));
  t.entries.push_back(entry(1000, 1000, 1000, "f32", "nn", "f32_only", ""));
  TableEntry unverified = entry(1000, 1000, 1000, "f16", "nn", "x", "");
  unverified.best.reset();
  t.entries.push_back(unverified);
  const std::vector<std::string> s = similar_winners(t, 1000, 1000, 1000, 1, "f16", "nn", 3, 8);
  // The near entries' winners first, then their runners-up, then their families' bests.
  EXPECT_EQ(s, (std::vector<std::string>{"near", "other_layout", "far", "near2", "splitk_near", "splitk_other_layout",
                                         "splitk_far"}));
  EXPECT_EQ(similar_winners(t, 1000, 1000, 1000, 1, "f16", "nn", 1, 2), (std::vector<std::string>{"near", "near2"}));
  EXPECT_TRUE(similar_winners(t, 1000, 1000, 1000, 1, "bf16", "nn").empty());
  // A resumed problem leaves out its own entry.
  const auto not_near = [](const TableEntry& e) { return e.best->name == "near"; };
  EXPECT_EQ(similar_winners(t, 1000, 1000, 1000, 1, "f16", "nn", 1, 8, not_near).front(), "other_layout");
}

TEST(SimilarWinners, TheTwinDtypesEntriesCountAQuarterFurtherWithTheirNamesRetyped) {
  TuningTable t;
  auto entry = [](uint64_t m, const std::string& dtype, const std::string& best) {
    TableEntry e;
    e.m = m, e.n = 768, e.k = 768, e.dtype = dtype, e.layout = "nt";
    e.best = ConfigResult{};
    e.best->name = best;
    return e;
  };
  t.entries.push_back(entry(256, "bf16", "rowmma_bf16_sgk8_frags1_unroll4_wide0_regs1"));    // ln 2 = 0.69 away
  t.entries.push_back(entry(128, "f16", "coopmat_f16_bm64_bn64_bk64_sgm2_sgn2_splits4"));    // the same shape
  t.entries.push_back(entry(160, "bf16", "coopmat_bf16_bm64_bn96_bk64_sgm2_sgn2_splits4"));  // ln 1.25 = 0.22 away
  t.entries.push_back(entry(128, "f32", "tiled_f32_bm64_bn64_bk8_tm4_tn4"));                 // no twin of bf16
  // bf16 at 128x768x768: f16's same-shape winner (0.25) retyped, between the bf16 neighbours at 0.22 and 0.69.
  EXPECT_EQ(similar_winners(t, 128, 768, 768, 1, "bf16", "nt", 3, 8, {}, "f16"),
            (std::vector<std::string>{"coopmat_bf16_bm64_bn96_bk64_sgm2_sgn2_splits4",
                                      "coopmat_bf16_bm64_bn64_bk64_sgm2_sgn2_splits4",
                                      "rowmma_bf16_sgk8_frags1_unroll4_wide0_regs1"}));
  // Without a twin only the dtype's own entries count.
  EXPECT_EQ(similar_winners(t, 128, 768, 768, 1, "bf16", "nt", 3, 8).size(), 2u);
  EXPECT_EQ(retyped_config_name("coopmat_f16_bm64_bn64", "f16", "bf16"), "coopmat_bf16_bm64_bn64");
  EXPECT_EQ(retyped_config_name("naive_u8", "u8", "i8"), "naive_i8");
  EXPECT_EQ(retyped_config_name("coopmat_f32_bm64", "f16", "bf16"), "coopmat_f32_bm64");
  EXPECT_EQ(retyped_config_name("nounderscore", "f16", "bf16"), "nounderscore");
  EXPECT_EQ(twin_dtype(DType::f16), DType::bf16);
  EXPECT_EQ(twin_dtype(DType::u8), DType::i8);
  EXPECT_FALSE(twin_dtype(DType::f32).has_value());
  EXPECT_FALSE(twin_dtype(DType::f16_q4_0).has_value());
}

}  // namespace gemmtune
