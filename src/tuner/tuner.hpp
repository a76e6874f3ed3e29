// The tuner: for one problem, screens every candidate with one verified and timed run within a time budget,
// then gives the best few full samples and picks the fastest verified one.
#pragma once

#include <algorithm>
#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "run/gemm_runner.hpp"
#include "tuner/space.hpp"

namespace gemmtune {

/// How candidates are searched (`--strategy`):
/// - screen: every candidate in the heuristic order gets one verified, timed batch until the budget less the
///   finals' reserve is spent; the fastest `finalists` get full samples (CLBlast's and CUTLASS's profilers sweep
///   this way).
/// - random: the same, in a seeded random order (Kernel Tuner's random sampling): an unbiased sample when the
///   budget covers a small part of the space.
/// - adaptive: screening that learns (tuner/strategy.hpp): the prior's first configs, then mostly the
///   neighbours of the fastest screened so far, every fourth pick the prior's next.
/// - exhaustive: every candidate gets full samples; the budget still ends the search.
enum class Strategy { screen, random, exhaustive, adaptive };
const char* strategy_name(Strategy s);
/// The share of a problem's search budget that screening may use; the finals get the rest.
constexpr double screening_share(Strategy s) { return s == Strategy::exhaustive ? 1.0 : 0.75; }
/// Screening ends at screening_share() of what the baseline's box leaves of the search's budget until a config is
/// verified; then, where that is later, where what is left is kFinalsMargin x the estimate of the current
/// finalists' full samples and the baseline's run, but at least kFinalsFloorShare of the budget (the estimate
/// leaves out a GPU's wait for steady clocks).
inline constexpr double kFinalsMargin = 2.0;
inline constexpr double kFinalsFloorShare = 0.05;
/// The baseline's box: the share of a problem's budget kept for the baseline (at least 0.25 s) until a config's
/// run gives its estimate.
inline constexpr double kBaselineBoxShare = 0.1;
/// Parses a strategy name; a bad one is a usage error naming `option`.
Strategy parse_strategy(const std::string& name, const std::string& option);

struct EvaluatedConfig;

/// The host's hardware threads, at least 1 and at most 8.
unsigned default_compile_threads();
/// Build worker processes by default: the host's hardware threads but one for the tuner, at least 1, at most 16;
/// on a CPU device, whose tuner mostly waits for the code generation, every hardware thread (at least 2).
unsigned default_build_workers(bool cpu_device);

/// The naive kernel's run against the winner's, for the baseline's time estimate: 8.5-13.2x measured on
/// lavapipe (f32 256^3 to 1024x768x3072), 8.2x on the H200 (4096^3 f32).
inline constexpr double kNaiveSlowdownEstimate = 16.0;
/// The host's check of a result against the reference, per element of C: about 13 ns on the hosts measured. A
/// finalist and the baseline are checked on the host; a GPU whose clocks are not kept up meanwhile
/// (RunOptions::keep_clocks) then warms up for 3x the idle that check left.
inline constexpr double kHostCheckSPerElement = 13e-9;
/// What the host's check of `p`'s result costs a finalist or the baseline: the check, and 3x it of warm-up where
/// the clocks are not kept up during it.
double host_check_cost_s(const GemmProblem& p, bool clocks_kept);
/// The naive kernel's run for the baseline's estimate: kNaiveSlowdownEstimate x the best config's run, or the
/// problem's `flops` at `naive_gflops` (the rate an earlier baseline of the run measured: 0 for none) where that is
/// longer: the textbook kernel's rate stays near its own (about 0.5 TFLOP/s in f16 on an H100 from 8x4096x14336 to
/// 2048x14336x4096) while the best config's grows with the problem (there 16x the best's run was 540x short).
double naive_run_estimate_us(double best_run_us, double flops, double naive_gflops);
/// A naive run at least this long is timed once, right after its verification run, which is its warm-up
/// (GemmRunner::time_one_run).
inline constexpr double kLongNaiveRunUs = 50'000.0;
/// The baseline's time from the naive kernel's estimated run: verification, a warm-up batch, 3 samples and one spare
/// run (a run of kLongNaiveRunUs or more: its verification and one sample), a 20 ms warm-up, and `check_s`
/// (host_check_cost_s).
constexpr double baseline_estimate_s(double naive_run_us, double check_s) {
  return (naive_run_us >= kLongNaiveRunUs ? 2.0 : 6.0) * naive_run_us * 1e-6 + 0.02 + check_s;
}

struct TuneOptions {
  Strategy strategy = Strategy::adaptive;
  /// Time for the problem, everything included: the reference, then the search (screening up to what is left
  /// after the reference, less a reserve for the finals and the baseline (see kFinalsMargin), the finals the
  /// rest: at least 3 samples each, at most
  /// `samples`, fewer finalists where 3 rounds would not fit), then the baseline. The first candidate is always
  /// screened and one finalist always sampled, so a tiny budget still gives a verified winner (and overruns by
  /// that config's time).
  double budget_s = 90.0;
  int warmup = 2;       ///< untimed runs before the samples of a finalist (fewer if the budget is short)
  int samples = 10;     ///< timed runs per finalist (fewer if the budget is short, never below 3)
  int finalists = 3;    ///< screened configs that get full samples
  std::string kernels;  ///< shell glob over config names; empty: every candidate
  /// The winner must beat the runner-up by more than this many times the larger of their CVs; otherwise
  /// the entry is a tie and the config with fewer resources (shared memory, then invocations) wins.
  double noise_factor = 2.0;
  /// A config whose first timed batch takes this many times the best screened so far (exhaustive: the best
  /// finalist's first sample) is timed no further: clearly slower, it cannot win. 0: every config timed in full.
  double cut_factor = 1.5;
  /// Screening results already measured (a journal read by --resume): used as they are, not measured again.
  std::map<std::string, Measurement> known;
  /// Config names screened first, in this order, where they are candidates (winners of similar problems), each
  /// followed by the prior's next pick.
  std::vector<std::string> seeds;
  /// Seeds screened first at most: the first this many of `seeds` that are candidates.
  size_t max_seeds = 8;
  /// Called for every measured config (screening and finals), before the search moves on: the journal.
  std::function<void(const EvaluatedConfig&, const char* phase)> on_evaluated;
  /// Called before a config is screened or prepared (the journal's "begin": --isolate's watchdog times it).
  std::function<void(const std::string& name)> on_begin;
  /// Called as the problem moves on: "reference", "screening", "finals" (detail: "round r of n"), "baseline".
  std::function<void(const std::string& phase, const std::string& detail)> on_phase;
  /// Also time the naive kernel's first config once (the baseline the winner's speed-up is measured against),
  /// in what the search kept for it (baseline_kept_s) or what it left: skipped, with TuneResult::baseline_skipped
  /// saying why, when its estimate (baseline_estimate_s of naive_run_estimate_us) would not fit.
  bool baseline = true;
  /// The naive kernel's rate in GFLOP/s from an earlier problem's baseline of the same dtype in this run (0: none
  /// yet): its estimate (naive_run_estimate_us) keeps a large problem's baseline inside the budget.
  double naive_gflops = 0.0;
  /// The most of budget_s the search leaves for the baseline (tune_problem: a tenth of the problem's budget, at
  /// least 0.25 s); once a config is screened the search keeps kFinalsMargin x baseline_estimate_s() of it
  /// instead, where that is less.
  double baseline_box_s = 0.0;
  /// Pipelines built at once, on this many threads, for the next candidates to screen (1: each just before it
  /// runs). Default: the host's hardware threads, at most 8.
  unsigned compile_threads = default_compile_threads();
  /// Where set, pipelines are built ahead in these worker processes (run/build_workers.hpp), and compile_threads
  /// is not used.
  BuildWorkers* build_workers = nullptr;
  /// Set by SIGINT/SIGTERM: the search ends at once with what is measured.
  const std::atomic<bool>* stop = nullptr;
  RunOptions run;
};

/// What the search keeps of o.budget_s for the baseline after it: o.baseline_box_s until a config is verified
/// (`best_us` infinite), then kFinalsMargin x baseline_estimate_s() where that is less (the naive run estimated from
/// `best_us` and the problem's `flops`: naive_run_estimate_us); 0 without a baseline.
double baseline_kept_s(const TuneOptions& o, double best_us, double check_s, double flops);

struct EvaluatedConfig {
  const KernelFamily* family;
  std::string name;
  Config config;
  Measurement measurement;
  bool finalist = false;
};

/// Where the screening's time went, summed over the configs it screened (Measurement's cost fields), in ms.
struct ScreeningCost {
  double build_ms = 0.0, verify_ms = 0.0, warmup_ms = 0.0, timing_ms = 0.0, total_ms = 0.0;
  void add(const Measurement& m);
};

struct TuneResult {
  GemmProblem problem;
  std::vector<EvaluatedConfig> evaluated;  ///< finalists first (fastest first), then the other screened configs
  std::vector<PrunedConfig> pruned;
  std::vector<NotApplicable> not_applicable;
  size_t skipped = 0;  ///< candidates left unscreened when the budget ran out
  bool budget_exhausted = false;
  bool interrupted = false;  ///< ended by TuneOptions::stop; the best is the best screened
  Strategy strategy = Strategy::screen;
  size_t resumed = 0;        ///< screening results taken from TuneOptions::known
  size_t screened = 0;       ///< configs screened by this run (resumed ones not counted)
  double screening_s = 0.0;  ///< the screening's wall-clock time, its builds and bookkeeping included
  ScreeningCost screening_cost;
  /// Configs screened a second (0 where none was): the tuner's own speed, which budgets are sized by.
  double configs_per_s() const { return screened > 0 && screening_s > 0.0 ? double(screened) / screening_s : 0.0; }
  /// The search's time after screening: the finals' samples.
  double finals_s() const { return std::max(0.0, search_s - screening_s); }
  bool tie = false;         ///< the winner is within the noise band of the runner-up
  double margin = 0.0;      ///< runner-up median / winner median - 1 (negative: a tie went to the simpler)
  double noise_band = 0.0;  ///< noise_factor x the larger CV of the two
  bool timestamps = true;   ///< false: host timing was used
  std::optional<EvaluatedConfig> baseline;  ///< the naive kernel, timed once (TuneOptions::baseline)
  std::string baseline_skipped;             ///< why the baseline did not run within its time, or empty
  double elapsed_s = 0.0;                   ///< the whole problem: reference, search and baseline
  double search_s = 0.0;                    ///< screening and finals alone (the budget is charged elapsed_s)
  double prepare_s = 0.0;        ///< before the search: the space, the operands, the reference and the device check
  PreparationTimes preparation;  ///< its parts (a device check made at the first screening counts there)
  double baseline_s = 0.0;       ///< the naive baseline after it

  const EvaluatedConfig* best() const;       ///< fastest verified finalist, or null
  const EvaluatedConfig* runner_up() const;  ///< second fastest verified finalist timed in full (not cut), or null
  size_t failed() const;                     ///< evaluated configs that did not pass
};

using ProgressFn = std::function<void(size_t done, size_t total, const EvaluatedConfig&)>;

/// The budget of problem `index` of a shape's `problems` (its dtypes and layouts): an equal share of what the
/// shape has left (`shape_left_s`, its budget less the search time of the problems before), but never less
/// than half of an equal share of the whole `shape_budget_s`, so one problem that overran (a batch of slow
/// pipeline builds) does not leave the next too little to measure anything.
double problem_budget_s(double shape_budget_s, double shape_left_s, size_t problems, size_t index);

TuneResult tune_problem(const vk::Device& device, const GemmProblem& problem,
                        const std::vector<const KernelFamily*>& families, const TuneOptions& options,
                        const ProgressFn& progress = {});

class Evaluator;
/// The search itself, through any evaluator (tests replay recorded measurements): runs options.strategy over
/// `candidates` (in screening order) and fills result's evaluated configs, counts and the winner's margin.
void run_search(TuneResult& result, std::vector<Candidate> candidates, Evaluator& evaluator, const TuneOptions& options,
                const ProgressFn& progress = {});
/// The first `count` candidates run_search would screen with these options before it has measured anything (the
/// configs the journal holds left out): their builds can start before the problem's preparation.
std::vector<Candidate> first_screened(std::vector<Candidate> candidates, const TuneOptions& options, size_t count);

}  // namespace gemmtune
