#include "tuner/tuner.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "kernels/registry.hpp"
#include "run/build_workers.hpp"
#include "tuner/evaluator.hpp"

namespace gemmtune {

unsigned default_compile_threads() { return std::clamp(std::thread::hardware_concurrency(), 1u, 8u); }

unsigned default_build_workers(bool cpu_device) {
  // A CPU device's tuner mostly waits for code generation: every core builds.
  const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 2u, 17u);
  return cpu_device ? std::min(threads, 16u) : threads - 1;
}

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
    if (seen_best) return e.measurement.cut ? nullptr : &e;  // a cut finalist's one sample is not comparable
    seen_best = true;
  }
  return nullptr;
}

size_t TuneResult::failed() const {
  return size_t(std::count_if(evaluated.begin(), evaluated.end(), [](const EvaluatedConfig& e) {
    return e.measurement.disposition != Disposition::passed;
  }));
}

double host_check_cost_s(const GemmProblem& p, bool clocks_kept) {
  const double check_s = kHostCheckSPerElement * double(p.shape.m) * double(p.shape.n) * double(p.shape.batch);
  return clocks_kept ? check_s : 4.0 * check_s;
}

double problem_budget_s(double shape_budget_s, double shape_left_s, size_t problems, size_t index) {
  const double equal_share = shape_budget_s / double(problems);
  return std::max(0.5 * equal_share, std::max(0.0, shape_left_s) / double(problems - index));
}

namespace {
/// The textbook kernel, timed once with a few samples: what tiling and tuning bought on this problem, if its
/// estimate fits in `left_s` (a tenth of the budget, or what the search left if more).
void time_baseline(TuneResult& result, GemmRunner& runner, const vk::Device& device, const TuneOptions& options,
                   double left_s) {
  SearchSpace naive = build_search_space({&baseline_family()}, result.problem, device.info());
  const EvaluatedConfig* best = result.best();
  if (naive.candidates.empty() || !best) return;
  // A short warm-up: the search just ran.
  constexpr double kWarmupNs = 20'000'000.0;
  const double scaled_us = kNaiveSlowdownEstimate * best->measurement.median_us;
  const double run_us =
      naive_run_estimate_us(best->measurement.median_us, result.problem.flops(), options.naive_gflops);
  const double estimate_s = baseline_estimate_s(run_us, host_check_cost_s(result.problem, options.run.keep_clocks));
  if (estimate_s > left_s) {
    const std::string run = run_us > scaled_us
                                ? "its rate in an earlier baseline of this run"
                                : std::to_string(int(kNaiveSlowdownEstimate)) + " x the best config's run";
    result.baseline_skipped = "about " + time_text(estimate_s * 1e6) + " (a run at " + run + ", " +
                              (run_us >= kLongNaiveRunUs ? "2 runs" : "6 runs") + "), " +
                              time_text(std::max(0.0, left_s) * 1e6) +
                              " for it (what the search kept for it, or what it left)";
    return;
  }
  const Candidate& c = naive.candidates.front();
  if (options.on_phase) options.on_phase("baseline", c.name);
  if (options.on_begin) options.on_begin(c.name);
  runner.set_warmup_ns(kWarmupNs);
  // One sample first: the estimate scales the best config's run, but the textbook kernel's rate does not (at
  // 2048x14336x4096 its run took 500x the best's, not 16x). A long run is timed right after its verification run,
  // which keeps the clocks up as a warm-up would (there, estimate, warm-up and sample were 4 of the 6 runs' 3 s); a
  // short one gets the warm-up and batches of a finalist, cheap at its length. Up to two more samples follow where
  // they fit what is left.
  const auto start = std::chrono::steady_clock::now();
  EvaluatedConfig e{c.family, c.name, c.config, runner.time_one_run(*c.family, c.config)};
  Measurement& m = e.measurement;
  if (m.disposition == Disposition::passed && !m.samples_us.empty() && m.samples_us.front() < kLongNaiveRunUs)
    m = runner.evaluate(*c.family, c.config, 1, 1);
  while (m.disposition == Disposition::passed && !m.samples_us.empty() && m.samples_us.size() < 3 &&
         std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() +
                 1e-6 * m.samples_us.back() * m.runs_per_sample <=
             left_s) {
    m.samples_us.push_back(runner.sample(*c.family, c.config, m.runs_per_sample));
    m.summarize(result.problem.flops());
  }
  if (options.on_evaluated) options.on_evaluated(e, "baseline");
  result.baseline = std::move(e);
}
}  // namespace

TuneResult tune_problem(const vk::Device& device, const GemmProblem& problem,
                        const std::vector<const KernelFamily*>& families, const TuneOptions& options,
                        const ProgressFn& progress) {
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };

  TuneResult result;
  result.problem = problem;
  SearchSpace space = build_search_space(families, problem, device.info());
  result.pruned = std::move(space.pruned);
  result.not_applicable = std::move(space.not_applicable);
  keep_matching(space, options.kernels);
  order_for_screening(space.candidates, problem, device.info());

  // The budget is the problem's whole time: the reference (computed here, once), the search, and the baseline's
  // tenth, which the search leaves untouched.
  if (options.on_phase) options.on_phase("reference", "");
  // The first configs the search will screen go to the build workers now, so their builds (seconds each from a cold
  // pipeline cache on NVIDIA's driver) run while the operands and the host reference are made.
  GemmRunner::WorkerTickets early;
  if (options.build_workers) {
    std::vector<std::pair<const KernelFamily*, Config>> first;
    for (Candidate& c : first_screened(space.candidates, options, size_t(options.build_workers->count()) * 2))
      first.emplace_back(c.family, std::move(c.config));
    early = GemmRunner::submit_ahead(*options.build_workers, device, problem, options.run, first);
  }
  GemmRunner runner(device, problem, options.run);
  // On a GPU the first config's check would otherwise fall between its kept-up build and its warm-up, which
  // would pay 3x its length as idle; CPU devices warm up for the idle alone and keep the budget. Made before the
  // search's share is taken, so its time counts against the budget as it did inside the first screening.
  if (device.info().type != VK_PHYSICAL_DEVICE_TYPE_CPU) runner.prepare_device_check();
  result.prepare_s = elapsed();
  result.preparation = runner.preparation();
  spdlog::debug("{} {}: reference ready after {:.2f} s, {} candidates, {} pruned", problem.shape.to_string(),
                dtype_name(problem.dtype), elapsed(), space.candidates.size(), result.pruned.size());
  // A tenth of the budget, and at least a quarter of a second, so a tiny budget keeps a small problem's baseline;
  // the search keeps less once its screening gives the baseline's estimate.
  const double baseline_box_s = options.baseline ? std::max(0.25, kBaselineBoxShare * options.budget_s) : 0.0;
  TuneOptions search = options;
  search.budget_s = std::max(0.0, options.budget_s - elapsed());
  search.baseline_box_s = baseline_box_s;
  if (options.build_workers) {
    runner.use_build_workers(options.build_workers);
    runner.adopt_builds(std::move(early));
  }
  RunnerEvaluator evaluator(runner, options.compile_threads);
  run_search(result, std::move(space.candidates), evaluator, search, progress);
  // What the search left, at least what it kept for the baseline (a search that overran does not take it).
  const double baseline_start_s = elapsed();
  if (options.baseline && !result.interrupted && result.best()) {
    const double kept_s = baseline_kept_s(search, result.best()->measurement.median_us,
                                          host_check_cost_s(problem, options.run.keep_clocks), problem.flops());
    time_baseline(result, runner, device, options, std::max(kept_s, options.budget_s - elapsed()));
  }
  result.elapsed_s = elapsed();
  result.baseline_s = result.elapsed_s - baseline_start_s;
  return result;
}

}  // namespace gemmtune
