// The tuner: for one problem, screens every candidate with one verified and timed run within a time budget,
// then gives the best few full samples and picks the fastest verified one.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "run/gemm_runner.hpp"
#include "tuner/space.hpp"

namespace gemmtune {

struct TuneOptions {
  /// Time for the problem, counted after the reference is computed: screening takes up to 3/4 of it, the finals the rest (at least 3 samples each,
  /// at most `samples`). The first candidate is always screened and the finals always run, so a tiny budget
  /// still gives a verified winner.
  double budget_s = 90.0;
  int warmup = 2;          ///< untimed runs before the samples of a finalist (fewer if the budget is short)
  int samples = 10;        ///< timed runs per finalist (fewer if the budget is short, never below 3)
  int finalists = 3;       ///< screened configs that get full samples
  std::string kernels;     ///< shell glob over config names; empty: every candidate
  RunOptions run;
};

struct EvaluatedConfig {
  const KernelFamily* family;
  std::string name;
  Config config;
  Measurement measurement;
  bool finalist = false;
};

struct TuneResult {
  GemmProblem problem;
  std::vector<EvaluatedConfig> evaluated;  ///< finalists first (fastest first), then the other screened configs
  std::vector<PrunedConfig> pruned;
  std::vector<NotApplicable> not_applicable;
  size_t skipped = 0;             ///< candidates left unscreened when the budget ran out
  bool budget_exhausted = false;
  bool timestamps = true;         ///< false: host timing was used
  double elapsed_s = 0.0;

  const EvaluatedConfig* best() const;       ///< fastest verified finalist, or null
  const EvaluatedConfig* runner_up() const;  ///< second fastest verified finalist, or null
  size_t failed() const;                     ///< evaluated configs that did not pass
};

using ProgressFn = std::function<void(size_t done, size_t total, const EvaluatedConfig&)>;

TuneResult tune_problem(const vk::Device& device, const GemmProblem& problem, const std::vector<const KernelFamily*>& families,
                        const TuneOptions& options, const ProgressFn& progress = {});

}  // namespace gemmtune
