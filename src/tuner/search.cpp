// The search strategies: screening, finals measured in interleaved rounds, and the noise-aware choice.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <tuple>

#include "core/error.hpp"
#include "tuner/evaluator.hpp"
#include "tuner/strategy.hpp"
#include "tuner/tuner.hpp"

namespace gemmtune {

const char* strategy_name(Strategy s) {
  switch (s) {
    case Strategy::screen:
      return "screen";
    case Strategy::random:
      return "random";
    case Strategy::exhaustive:
      return "exhaustive";
    case Strategy::adaptive:
      return "adaptive";
  }
  return "?";
}

Strategy parse_strategy(const std::string& name, const std::string& option) {
  for (Strategy s : {Strategy::screen, Strategy::adaptive, Strategy::random, Strategy::exhaustive}) {
    if (name == strategy_name(s)) return s;
  }
  throw usage_error(option, name, "expected screen, adaptive, random or exhaustive");
}

double naive_run_estimate_us(double best_run_us, double flops, double naive_gflops) {
  const double scaled = kNaiveSlowdownEstimate * best_run_us;
  return naive_gflops > 0.0 ? std::max(scaled, flops / (naive_gflops * 1e3)) : scaled;
}

double baseline_kept_s(const TuneOptions& o, double best_us, double check_s, double flops) {
  if (!o.baseline) return 0.0;
  if (!std::isfinite(best_us)) return o.baseline_box_s;
  return std::min(o.baseline_box_s,
                  kFinalsMargin * baseline_estimate_s(naive_run_estimate_us(best_us, flops, o.naive_gflops), check_s));
}

void ScreeningCost::add(const Measurement& m) {
  build_ms += m.compile_ms;
  verify_ms += m.verify_ms;
  warmup_ms += m.warmup_ms;
  timing_ms += m.timing_ms;
  total_ms += m.total_ms;
}

namespace {
// Finalists from other families (choose_finalists): within this factor of the best screening time, at most this many.
constexpr double kOtherFamilyBand = 1.15;
constexpr size_t kOtherFamilyFinalists = 2;

bool passed(const EvaluatedConfig& e) { return e.measurement.disposition == Disposition::passed; }

/// Verified before failed, then timed in full before cut (a cut config's one batch was clearly slower than the
/// best's when it was taken: a later slow round of the others cannot make it the winner), then the median.
bool faster(const EvaluatedConfig& a, const EvaluatedConfig& b) {
  if (passed(a) != passed(b)) return passed(a);
  if (a.measurement.cut != b.measurement.cut) return !a.measurement.cut;
  return a.measurement.median_us < b.measurement.median_us;
}

/// Fewer resources first: shared memory, then invocations per workgroup, then the name (deterministic).
auto resources(const EvaluatedConfig& e, DType dtype) {
  return std::make_tuple(e.family->shared_bytes ? e.family->shared_bytes(e.config, dtype) : 0,
                         e.family->workgroup_size(e.config), e.name);
}

/// A seeded shuffle that is the same on every platform (std::shuffle's draws are implementation-defined).
void shuffle_candidates(std::vector<Candidate>& c, uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (size_t i = c.size(); i > 1; --i) std::swap(c[i - 1], c[size_t(rng() % i)]);
}

/// Moves the first `limit` candidates named in `seeds` to the front, in the seeds' order, each followed by the next of
/// the others in their order (the prior's), so neither the winners of similar problems nor the prior's first picks
/// wait for the other's; the others keep their order. Names that are no candidate (a family that does not apply
/// here) take no place.
void interleave_seeds(std::vector<Candidate>& c, const std::vector<std::string>& seeds, size_t limit) {
  std::vector<Candidate> seeded;
  for (const std::string& name : seeds) {
    if (seeded.size() >= limit) break;
    auto it = std::find_if(c.begin(), c.end(), [&](const Candidate& x) { return x.name == name; });
    if (it == c.end()) continue;
    seeded.push_back(std::move(*it));
    c.erase(it);
  }
  std::vector<Candidate> front;
  for (size_t i = 0; i < seeded.size(); ++i) {
    front.push_back(std::move(seeded[i]));
    if (i < c.size()) front.push_back(std::move(c[i]));
  }
  c.erase(c.begin(), c.begin() + std::ptrdiff_t(std::min(seeded.size(), c.size())));
  c.insert(c.begin(), std::make_move_iterator(front.begin()), std::make_move_iterator(front.end()));
}

/// Puts the winner first among the finalists: the fastest, unless the runner-up is within the noise band, in
/// which case the config with the fewest resources among those within the band of the fastest. A cut finalist (one
/// sample, clearly slower when it was taken) is no runner-up: its sample is not comparable with the others' medians.
void choose_winner(TuneResult& r, std::vector<EvaluatedConfig*>& finals, double noise_factor) {
  std::stable_sort(finals.begin(), finals.end(),
                   [](const EvaluatedConfig* a, const EvaluatedConfig* b) { return faster(*a, *b); });
  if (finals.size() < 2 || !passed(*finals[1]) || finals[1]->measurement.cut) return;
  const Measurement& first = finals[0]->measurement;
  const Measurement& second = finals[1]->measurement;
  r.noise_band = noise_factor * std::max(first.cv, second.cv);
  r.tie = second.median_us / first.median_us - 1.0 <= r.noise_band;
  if (r.tie) {
    auto simplest = finals.begin();
    for (auto it = finals.begin(); it != finals.end(); ++it) {
      const Measurement& m = (*it)->measurement;
      if (!passed(**it) || m.cut || m.median_us > first.median_us * (1.0 + r.noise_band)) continue;
      if (resources(**it, r.problem.dtype) < resources(**simplest, r.problem.dtype)) simplest = it;
    }
    std::rotate(finals.begin(), simplest, simplest + 1);
  }
  r.margin = finals[1]->measurement.median_us / finals[0]->measurement.median_us - 1.0;
}

/// The configs screened, in candidate order, and the candidate each came from.
struct Screened {
  std::vector<EvaluatedConfig> configs;
  std::vector<const Candidate*> candidates;
};

/// Builds, before candidate i is measured, the pipelines of the candidates the strategy gives next together
/// (after i's begin mark, so a driver crash while compiling is charged to a config of the batch). A batch is sized
/// to what is left of the screening budget, so builds that would never be measured are not paid for; the first
/// batch is one config, which gives the estimate (on the H200 a first batch of 8 fresh coopmat builds took most of
/// a dtype's 10 s share, and one config was measured in 12.6 s; drivers that build one pipeline at a time make a
/// batch cost its size). With build workers (Evaluator::builds_ahead), the next candidates are handed over as the
/// screening moves on instead, and nothing waits for them here.
class BatchBuilder {
 public:
  void before(size_t i, const ScreeningStrategy& order, const std::vector<Candidate>& candidates, Evaluator& ev,
              const TuneOptions& o, double left_s) {
    if (const size_t ahead = ev.builds_ahead(); ahead > 0) {
      ahead_ = true;
      hand_over(i, order, candidates, ev, o, ahead);
      return;
    }
    if (o.compile_threads <= 1 || built_.count(i)) return;
    size_t batch = s_per_config_ < 0.0 ? 1 : o.compile_threads;
    if (s_per_config_ > 0.0)
      batch = std::clamp<size_t>(size_t(std::max(0.0, left_s / s_per_config_)), 1, o.compile_threads);
    const double start = ev.now_s();
    const size_t count = hand_over(i, order, candidates, ev, o, batch);
    if (count > 0) s_per_config_ = (ev.now_s() - start) / double(count);
  }

  /// The build time candidate i will still cost before it is screened: none once built in a batch (or when
  /// builds happen inside screening, one thread, or in workers), else the last batch's time per config.
  double build_estimate_s(size_t i, const TuneOptions& o) const {
    if (ahead_ || o.compile_threads <= 1 || built_.count(i)) return 0.0;
    return std::max(0.0, s_per_config_);
  }

 private:
  /// Precompiles candidate i and the strategy's next ones, `count` in all, leaving out those built or handed
  /// over before and those the journal holds. Returns how many went.
  size_t hand_over(size_t i, const ScreeningStrategy& order, const std::vector<Candidate>& candidates, Evaluator& ev,
                   const TuneOptions& o, size_t count) {
    std::vector<size_t> wanted = {i};
    for (size_t j : order.upcoming(count - 1 + o.known.size())) wanted.push_back(j);
    std::vector<const Candidate*> next;
    for (size_t j : wanted) {
      if (next.size() >= count) break;
      if (!o.known.count(candidates[j].name) && built_.insert(j).second) next.push_back(&candidates[j]);
    }
    if (!next.empty()) ev.precompile(next);
    return next.size();
  }

  std::set<size_t> built_;      ///< candidates whose pipelines were built in a batch or handed to workers
  double s_per_config_ = -1.0;  ///< from the last batch (< 0: none yet)
  bool ahead_ = false;          ///< builds go to workers: their time shows in the screening runs
};

/// What preparing one finalist and `rounds` samples of it would take, from its screening median and the host
/// check's cost (host_check_cost_s).
double finalist_cost_s(double median_us, int rounds, const TuneOptions& o, double check_s) {
  const double run_s = std::max(1e-6, median_us * 1e-6);
  const double sample_s = std::max(run_s, o.run.min_sample_ns * 1e-9);
  return run_s + check_s + std::max(o.warmup * sample_s, o.run.warmup_ns * 1e-9) + double(rounds) * sample_s;
}

/// Where screening ends, in seconds of the search (see kFinalsMargin): the share of what the baseline's box leaves
/// at first; once configs are verified, where that is later, the budget less kFinalsMargin x the cost of the finals
/// the fastest of them would have (full samples) and of the baseline, at least kFinalsFloorShare of the budget.
class ScreenEnd {
 public:
  ScreenEnd(const TuneOptions& o, double share, double check_s, double flops)
      : o_(o), share_(share), check_s_(check_s), flops_(flops) {}
  void observe(const Measurement& m) {
    if (m.disposition != Disposition::passed || m.cut) return;
    best_us_.insert(std::upper_bound(best_us_.begin(), best_us_.end(), m.median_us), m.median_us);
    if (best_us_.size() > size_t(std::max(1, o_.finalists))) best_us_.pop_back();
  }
  double at_s() const {
    const double budget = o_.budget_s;
    const double first = share_ * std::max(0.0, budget - baseline_kept_s(o_, HUGE_VAL, check_s_, flops_));
    if (best_us_.empty()) return first;
    double finals = 0.0;
    for (double us : best_us_) finals += finalist_cost_s(us, std::max(3, o_.samples), o_, check_s_);
    const double reserve = std::max(kFinalsMargin * finals + baseline_kept_s(o_, best_us_.front(), check_s_, flops_),
                                    kFinalsFloorShare * budget);
    return std::max(first, budget - reserve);
  }

 private:
  const TuneOptions& o_;
  double share_, check_s_, flops_;
  std::vector<double> best_us_;  ///< the fastest verified screening medians, at most `finalists`
};

/// The strategy's next candidate; with build workers, the first of its next ones whose pipeline is built, so the
/// device screens what is ready instead of waiting behind a build (configs the journal holds need none). It waits
/// for a build under way at most `left_s`, the screening's time left: a wait past the screening's end would be
/// charged to no config, and the budget would not hold. Where preparing the problem took the budget (`first` with no
/// time left) the one config screened is the strategy's first, not the config whose build was quickest (a SIMT tile
/// where the prior opens with the matrix units); screen() owes it a screen in every other case.
size_t pick_next(ScreeningStrategy& order, const std::vector<Candidate>& candidates, Evaluator& ev,
                 const TuneOptions& o, double left_s, bool first) {
  if (const size_t window = ev.builds_ahead(); window > 1 && !(first && left_s <= 0.0)) {
    const std::vector<size_t> upcoming = order.upcoming(window);
    if (!upcoming.empty() && !o.known.count(candidates[upcoming.front()].name)) {
      std::vector<size_t> fresh;
      std::vector<const Candidate*> next;
      for (size_t j : upcoming) {
        if (o.known.count(candidates[j].name)) continue;
        fresh.push_back(j);
        next.push_back(&candidates[j]);
      }
      if (const size_t k = ev.first_ready(next, std::max(0.0, left_s)); k > 0 && k < fresh.size()) {
        order.take(fresh[k]);
        return fresh[k];
      }
    }
  }
  return order.next();
}

/// Screening: one verified, timed batch per candidate while the next (its build and a run at the average so far)
/// fits before ScreenEnd (the budget less the finals' reserve). The strategy's first candidate always runs, so a tiny
/// budget still yields a result; configs the journal already holds are taken from it.
Screened screen(TuneResult& r, const std::vector<Candidate>& candidates, ScreeningStrategy& order, Evaluator& ev,
                const TuneOptions& o, const ProgressFn& progress, double start, double share, double check_s) {
  auto spent = [&] { return ev.now_s() - start; };
  auto stopped = [&] { return o.stop && o.stop->load(); };
  Screened s;
  BatchBuilder builder;
  ScreenEnd end(o, share, check_s, r.problem.flops());
  double runs_s = 0.0;  // time in the screening runs themselves (builds in batches excluded)
  size_t screened = 0;
  double last_end = ev.now_s();  // the end of the last config screened: a config's total_ms counts from there
  double best_us = HUGE_VAL;     // the fastest verified config so far, for the cut
  auto next = [&] { return pick_next(order, candidates, ev, o, end.at_s() - spent(), s.configs.empty()); };
  // Over when a config (its build if not built yet, and a screening run at the average so far) would end past the
  // share: the budget is a promise, so the last config screened must fit too.
  auto over_for = [&](size_t i) {
    const double next_s = (screened > 0 ? runs_s / double(screened) : 0.0) + builder.build_estimate_s(i, o);
    return !s.configs.empty() && spent() + next_s > end.at_s();
  };
  // The strategy's first config is owed a screen, as the first config always ran: configs already built go while
  // its build is under way (one slow first build took a whole --budget 8 share), it goes as soon as it is built,
  // and where the screening would end without it, it goes instead of the config that would not fit.
  const std::vector<size_t> head = order.upcoming(1);
  size_t owed = head.empty() ? ScreeningStrategy::kNone : head.front();
  for (size_t i = next(); i != ScreeningStrategy::kNone; i = next()) {
    bool over = i != owed && over_for(i);
    if (over && owed != ScreeningStrategy::kNone && !o.known.count(candidates[i].name) && !stopped()) {
      order.take(owed);
      i = owed;
      over = false;
    }
    if (i == owed) owed = ScreeningStrategy::kNone;
    const Candidate& c = candidates[i];
    const auto known = o.known.find(c.name);
    const bool resumed = known != o.known.end();
    if (!resumed && (over || stopped())) {
      (stopped() ? r.interrupted : r.budget_exhausted) = true;
      r.skipped = candidates.size() - s.configs.size();
      break;
    }
    if (!resumed) {
      if (o.on_begin) o.on_begin(c.name);
      builder.before(i, order, candidates, ev, o, end.at_s() - spent());
    }
    const double screen_start = ev.now_s();
    const double stop_above_us = o.cut_factor > 0.0 ? o.cut_factor * best_us : HUGE_VAL;
    EvaluatedConfig e{c.family, c.name, c.config, resumed ? known->second : ev.screen(c, stop_above_us), false};
    if (passed(e) && !e.measurement.cut) best_us = std::min(best_us, e.measurement.median_us);
    order.observe(i, e.measurement);
    end.observe(e.measurement);
    if (resumed) {
      ++r.resumed;
    } else {
      runs_s += ev.now_s() - screen_start;
      ++screened;
      e.measurement.total_ms = (ev.now_s() - last_end) * 1000.0;
      r.screening_cost.add(e.measurement);
      if (o.on_evaluated) o.on_evaluated(e, "screen");
      last_end = ev.now_s();
    }
    if (progress) progress(i + 1, candidates.size(), e);
    s.configs.push_back(std::move(e));
    s.candidates.push_back(&c);
  }
  r.screened = screened;
  r.screening_s = last_end - start;
  return s;
}

/// Which ranks of `order` (screened configs, fastest first) go to the finals: the `wanted` fastest verified, then the
/// fastest verified config of each family not among them whose screening time is within kOtherFamilyBand of the
/// best's, at most kOtherFamilyFinalists of them. A screen is one batch after a short warm-up, and a family's
/// first screen can be off by more than the noise: at 16x4096x4096 tt on an H100 a rowmma config screened 1.07x the
/// best coopmat one and ran 0.85x its time when sampled (results/h200/notes.md, issue 43 step 13). The shrinking
/// finals drop these first (they come last).
std::vector<bool> choose_finalists(const std::vector<EvaluatedConfig>& configs, const std::vector<size_t>& order,
                                   size_t wanted) {
  std::vector<bool> chosen(order.size(), false);
  std::set<const KernelFamily*> families;
  size_t taken = 0;
  for (size_t rank = 0; rank < order.size() && taken < wanted; ++rank) {
    if (!passed(configs[order[rank]])) continue;
    chosen[rank] = true;
    families.insert(configs[order[rank]].family);
    ++taken;
  }
  if (taken == 0 || taken < wanted) return chosen;  // every verified config is already in
  const double best_us = configs[order.front()].measurement.median_us;
  size_t others = 0;
  for (size_t rank = 0; rank < order.size() && others < kOtherFamilyFinalists; ++rank) {
    const EvaluatedConfig& e = configs[order[rank]];
    if (chosen[rank] || !passed(e) || e.measurement.cut || families.count(e.family)) continue;
    if (e.measurement.median_us > kOtherFamilyBand * best_us) break;  // fastest first: the rest are slower
    chosen[rank] = true;
    families.insert(e.family);
    ++others;
  }
  return chosen;
}

/// What preparing the finalists and 3 rounds of their samples would take, from their screening times.
double finals_cost_s(const std::vector<EvaluatedConfig*>& finals, const TuneOptions& o, double check_s) {
  double cost = 0.0;
  for (const EvaluatedConfig* f : finals) cost += finalist_cost_s(f->measurement.median_us, 3, o, check_s);
  return cost;
}

/// Finals: the finalists are prepared (verified again, warmed up), then sampled in rounds across all of them, so
/// clock drift and thermal changes hit every finalist alike: as many rounds as the rest of the budget holds (from
/// the screening times), at least 3, at most --samples.
void run_finals(TuneResult& r, const std::vector<EvaluatedConfig*>& finals,
                const std::vector<const Candidate*>& candidates, Evaluator& ev, const TuneOptions& o, double start,
                double check_s) {
  std::vector<double> estimate_us;
  if (o.on_phase) o.on_phase("finals", "preparing " + std::to_string(finals.size()));
  for (size_t f = 0; f < finals.size(); ++f) {
    estimate_us.push_back(finals[f]->measurement.median_us);
    const double compile_ms = finals[f]->measurement.compile_ms;
    if (o.on_begin) o.on_begin(finals[f]->name);
    finals[f]->measurement = ev.prepare(*candidates[f], o.warmup);
    finals[f]->measurement.compile_ms = compile_ms;
    finals[f]->measurement.screen_us = estimate_us[f];
  }
  double round_s = 0.0;
  for (size_t f = 0; f < finals.size(); ++f) {
    round_s +=
        std::max({1e-6, estimate_us[f] * 1e-6 * finals[f]->measurement.runs_per_sample, o.run.min_sample_ns * 1e-9});
  }
  double best_us = HUGE_VAL;
  for (double us : estimate_us) best_us = std::min(best_us, us);
  const double left_s =
      std::max(0.0, o.budget_s - baseline_kept_s(o, best_us, check_s, r.problem.flops()) - (ev.now_s() - start));
  const int rounds = std::clamp(int(std::min(1e6, left_s / std::max(round_s, 1e-9))), 3, std::max(3, o.samples));
  for (int round = 0; round < rounds; ++round) {
    if (o.on_phase) o.on_phase("finals", "round " + std::to_string(round + 1) + " of " + std::to_string(rounds));
    if (round > 0 && o.stop && o.stop->load()) {
      r.interrupted = true;
      break;
    }
    for (size_t f = 0; f < finals.size(); ++f) {
      Measurement& m = finals[f]->measurement;
      if (m.disposition != Disposition::passed || m.cut) continue;
      // Each sample is begun anew, so a fault or hang in this round is blamed on the finalist that ran.
      if (o.on_begin) o.on_begin(finals[f]->name);
      m.samples_us.push_back(ev.sample(*candidates[f], m.runs_per_sample));
    }
    if (round == 0 && o.cut_factor > 0.0) {
      // Finalists whose first sample is clearly slower than the best first sample take no more (exhaustive
      // searches put every config in the finals).
      double best_first = HUGE_VAL;
      for (const EvaluatedConfig* f : finals) {
        if (f->measurement.disposition == Disposition::passed && !f->measurement.samples_us.empty())
          best_first = std::min(best_first, f->measurement.samples_us.front());
      }
      for (EvaluatedConfig* f : finals) {
        Measurement& m = f->measurement;
        if (m.disposition == Disposition::passed && !m.samples_us.empty() &&
            m.samples_us.front() >= o.cut_factor * best_first)
          m.cut = true;
      }
    }
  }
  const double flops = r.problem.flops();
  for (EvaluatedConfig* f : finals) {
    f->measurement.summarize(flops);
    if (o.on_evaluated) o.on_evaluated(*f, "final");
  }
}
}  // namespace

namespace {
/// The candidates in the order the search gives its strategy (random: shuffled; the seeds first), and the strategy.
std::unique_ptr<ScreeningStrategy> screening_order(std::vector<Candidate>& candidates, const TuneOptions& o) {
  if (o.strategy == Strategy::random) shuffle_candidates(candidates, o.run.seed);
  interleave_seeds(candidates, o.seeds, o.max_seeds);
  return o.strategy == Strategy::adaptive ? neighbourhood_order(candidates) : prior_order(candidates.size());
}
}  // namespace

std::vector<Candidate> first_screened(std::vector<Candidate> candidates, const TuneOptions& o, size_t count) {
  const std::unique_ptr<ScreeningStrategy> strategy = screening_order(candidates, o);
  std::vector<Candidate> out;
  for (size_t i : strategy->upcoming(count + o.known.size())) {
    if (out.size() < count && !o.known.count(candidates[i].name)) out.push_back(candidates[i]);
  }
  return out;
}

void run_search(TuneResult& r, std::vector<Candidate> candidates, Evaluator& ev, const TuneOptions& o,
                const ProgressFn& progress) {
  r.strategy = o.strategy;
  r.timestamps = ev.timestamps();
  const std::unique_ptr<ScreeningStrategy> strategy = screening_order(candidates, o);
  const double start = ev.now_s();
  if (o.on_phase) o.on_phase("screening", "");
  // What a finalist's (and the baseline's) host check of the result costs: the screen's end and the finals count it.
  const double check_s = host_check_cost_s(r.problem, o.run.keep_clocks);
  Screened screened = screen(r, candidates, *strategy, ev, o, progress, start, screening_share(o.strategy), check_s);

  // The fastest verified configs (exhaustive: all) go to the finals; the others' pipelines are released.
  std::vector<size_t> order(screened.configs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return faster(screened.configs[a], screened.configs[b]); });
  const size_t verified = size_t(std::count_if(screened.configs.begin(), screened.configs.end(), passed));
  const size_t wanted =
      o.strategy == Strategy::exhaustive ? verified : std::min<size_t>(size_t(std::max(1, o.finalists)), verified);
  const std::vector<bool> chosen = choose_finalists(screened.configs, order, wanted);
  std::vector<EvaluatedConfig*> finals;
  std::vector<const Candidate*> final_candidates;
  for (size_t rank = 0; rank < order.size(); ++rank) {
    if (chosen[rank]) {
      finals.push_back(&screened.configs[order[rank]]);
      final_candidates.push_back(screened.candidates[order[rank]]);
    } else {
      ev.release(*screened.candidates[order[rank]]);
    }
  }
  // The finals shrink to fit: the slowest finalists are left out (one always stays) while preparing them and 3
  // rounds of samples would not fit in what the budget has left.
  const double finals_budget_s =
      o.budget_s -
      baseline_kept_s(o, finals.empty() ? HUGE_VAL : finals.front()->measurement.median_us, check_s, r.problem.flops());
  while (finals.size() > 1 && finals_cost_s(finals, o, check_s) > finals_budget_s - (ev.now_s() - start)) {
    ev.release(*final_candidates.back());
    finals.pop_back();
    final_candidates.pop_back();
  }
  if (r.interrupted) {
    // Nothing more is measured: the best screened config stands, with its one sample.
    if (finals.size() > 1) finals.erase(finals.begin() + 1, finals.end());
  } else {
    run_finals(r, finals, final_candidates, ev, o, start, check_s);
  }
  for (EvaluatedConfig* f : finals) f->finalist = true;
  r.search_s = ev.now_s() - start;
  choose_winner(r, finals, o.noise_factor);

  // Finalists first, the winner leading, then every other screened config from the fastest.
  std::vector<EvaluatedConfig> ordered;
  for (EvaluatedConfig* f : finals) ordered.push_back(*f);
  for (size_t i : order) {
    if (!screened.configs[i].finalist) ordered.push_back(screened.configs[i]);
  }
  r.evaluated = std::move(ordered);
}

}  // namespace gemmtune
