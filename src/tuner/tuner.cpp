#include "tuner/tuner.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

namespace gemmtune {

namespace {
bool faster(const EvaluatedConfig& a, const EvaluatedConfig& b) {
  bool pa = a.measurement.disposition == Disposition::passed, pb = b.measurement.disposition == Disposition::passed;
  if (pa != pb) return pa;
  return a.measurement.median_us < b.measurement.median_us;
}
}  // namespace

const EvaluatedConfig* TuneResult::best() const {
  for (const EvaluatedConfig& e : evaluated) {
    if (e.finalist && e.measurement.disposition == Disposition::passed) return &e;
  }
  return nullptr;
}

const EvaluatedConfig* TuneResult::runner_up() const {
  bool seen_best = false;
  for (const EvaluatedConfig& e : evaluated) {
    if (!e.finalist || e.measurement.disposition != Disposition::passed) continue;
    if (seen_best) return &e;
    seen_best = true;
  }
  return nullptr;
}

size_t TuneResult::failed() const {
  return size_t(std::count_if(evaluated.begin(), evaluated.end(),
                              [](const EvaluatedConfig& e) { return e.measurement.disposition != Disposition::passed; }));
}

TuneResult tune_problem(const vk::Device& device, const GemmProblem& problem, const std::vector<const KernelFamily*>& families,
                        const TuneOptions& options, const ProgressFn& progress) {
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };

  TuneResult result;
  result.problem = problem;
  SearchSpace space = build_search_space(families, problem, device.info());
  result.pruned = std::move(space.pruned);
  result.not_applicable = std::move(space.not_applicable);
  keep_matching(space, options.kernels);
  order_for_screening(space.candidates);

  GemmRunner runner(device, problem, options.run);
  result.timestamps = runner.uses_timestamps();
  // The budget covers screening and finals; the reference (computed once, above) is not charged to it.
  const auto budget_start = std::chrono::steady_clock::now();
  auto spent = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - budget_start).count(); };
  spdlog::debug("{} {}: reference ready after {:.2f} s, {} candidates, {} pruned", problem.shape.to_string(),
                dtype_name(problem.dtype), elapsed(), space.candidates.size(), result.pruned.size());

  // Screening: one verified run and one timed run per candidate, until the budget is spent. The first
  // candidate always runs, so a tiny budget still yields a result.
  std::vector<EvaluatedConfig> screened;
  for (size_t i = 0; i < space.candidates.size(); ++i) {
    if (i > 0 && spent() >= 0.75 * options.budget_s) {
      result.budget_exhausted = true;
      result.skipped = space.candidates.size() - i;
      break;
    }
    const Candidate& c = space.candidates[i];
    EvaluatedConfig e{c.family, c.name, c.config, runner.evaluate(*c.family, c.config, 0, 0), false};
    if (progress) progress(i + 1, space.candidates.size(), e);
    screened.push_back(std::move(e));
  }
  std::stable_sort(screened.begin(), screened.end(), faster);

  // Finals: the best few verified configs get warm-up and full samples, as many as the rest of the budget
  // holds (estimated from each one's screening time); the others drop their pipelines.
  const size_t finalist_count = std::min<size_t>(size_t(std::max(1, options.finalists)),
      size_t(std::count_if(screened.begin(), screened.end(), [](const EvaluatedConfig& e) { return e.measurement.disposition == Disposition::passed; })));
  size_t finalists = 0;
  for (EvaluatedConfig& e : screened) {
    if (e.measurement.disposition == Disposition::passed && finalists < finalist_count) {
      // A sample costs at least one run and min_sample_ns; the warm-up costs warmup_ns and one run re-verifies.
      const double sample_s = std::max({1e-6, e.measurement.median_us * 1e-6, options.run.min_sample_ns * 1e-9});
      const double left_s = std::max(0.0, options.budget_s - spent()) / double(finalist_count - finalists);
      const double for_samples_s = left_s - options.run.warmup_ns * 1e-9 - sample_s;
      const int samples = std::clamp(int(std::min(1e6, for_samples_s / sample_s)), 3, std::max(3, options.samples));
      const int warmup = options.warmup;
      double compile_ms = e.measurement.compile_ms;
      e.measurement = runner.evaluate(*e.family, e.config, warmup, samples);
      e.measurement.compile_ms = compile_ms;
      e.finalist = true;
      ++finalists;
    } else {
      runner.drop_pipeline(e.name);
    }
  }
  std::stable_sort(screened.begin(), screened.end(), [](const EvaluatedConfig& a, const EvaluatedConfig& b) {
    if (a.finalist != b.finalist) return a.finalist;
    return faster(a, b);
  });
  result.evaluated = std::move(screened);
  result.elapsed_s = elapsed();
  return result;
}

}  // namespace gemmtune
