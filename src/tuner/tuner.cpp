#include "tuner/tuner.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "kernels/registry.hpp"
#include "tuner/evaluator.hpp"

namespace gemmtune {

unsigned default_compile_threads() { return std::clamp(std::thread::hardware_concurrency(), 1u, 8u); }

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
  return size_t(std::count_if(evaluated.begin(), evaluated.end(), [](const EvaluatedConfig& e) {
    return e.measurement.disposition != Disposition::passed;
  }));
}

double problem_budget_s(double shape_budget_s, double shape_left_s, size_t problems, size_t index) {
  const double equal_share = shape_budget_s / double(problems);
  return std::max(0.5 * equal_share, std::max(0.0, shape_left_s) / double(problems - index));
}

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
  order_for_screening(space.candidates, problem);

  // The budget covers screening and finals; the reference (computed here, once) is not charged to it.
  GemmRunner runner(device, problem, options.run);
  spdlog::debug("{} {}: reference ready after {:.2f} s, {} candidates, {} pruned", problem.shape.to_string(),
                dtype_name(problem.dtype), elapsed(), space.candidates.size(), result.pruned.size());
  RunnerEvaluator evaluator(runner, options.compile_threads);
  run_search(result, std::move(space.candidates), evaluator, options, progress);
  if (options.baseline && !result.interrupted) {
    // The textbook kernel, timed once with a few samples: what tiling and tuning bought on this problem.
    SearchSpace naive = build_search_space({&naive_family()}, problem, device.info());
    if (!naive.candidates.empty()) {
      const Candidate& c = naive.candidates.front();
      if (options.on_begin) options.on_begin(c.name);
      EvaluatedConfig e{c.family, c.name, c.config, runner.evaluate(*c.family, c.config, 1, 3)};
      if (options.on_evaluated) options.on_evaluated(e, "baseline");
      result.baseline = std::move(e);
    }
  }
  result.elapsed_s = elapsed();
  return result;
}

}  // namespace gemmtune
