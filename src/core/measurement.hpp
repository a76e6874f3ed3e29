// The outcome of evaluating one config: a disposition plus timing and verification figures. The one result type
// that flows from the runner (run/) through the journal (report/journal.hpp, which stores it whole) to the table
// (report/table.hpp's ConfigResult, a summary made from it by config_result); in core so every layer can hold it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gemmtune {

/// Verification figures of one result (src/verify/metric.hpp computes them).
struct ErrorStats {
  double error = 0.0;            ///< max|gpu - ref| / max|ref| (infinity if any result is NaN or Inf)
  double elementwise_rel = 0.0;  ///< max |gpu - ref| / |ref| over |ref| > 1e-3 * max|ref|
  double bound = 0.0;
  uint64_t non_finite = 0;   ///< results that are NaN or Inf
  uint64_t worst_index = 0;  ///< element with the largest absolute error
  double epilogue = 0.0;     ///< with a bias or an activation: the elementwise epilogue error (epilogue_check.hpp)
  bool passed = false;       ///< error <= bound, everything finite, and max|ref| > 0 or exact
};

enum class Disposition {
  passed,          ///< ran and verified
  incorrect,       ///< ran, but failed verification: never chosen
  compile_failed,  ///< the pipeline could not be built
  timed_out,       ///< did not finish within --isolate's wall-clock limit (its process was killed)
  device_lost,  ///< its process ended with a device fault (device lost, out of memory, fence timeout) under --isolate
  crashed,      ///< its process died on a signal (a driver crash) under --isolate
};

const char* disposition_name(Disposition d);
/// The disposition of a name written by disposition_name (a journal's); nullopt for anything else.
std::optional<Disposition> parse_disposition(const std::string& name);

struct Measurement {
  Disposition disposition = Disposition::passed;
  std::string detail;  ///< why it failed, empty when passed
  ErrorStats error;
  std::vector<double> samples_us;  ///< timed samples, in order (each a batch mean, see runs_per_sample)
  uint32_t runs_per_sample = 1;    ///< dispatches per timed batch
  double median_us = 0.0, min_us = 0.0;
  double cv = 0.0;          ///< coefficient of variation of the samples (0 with fewer than 2)
  double gflops = 0.0;      ///< from the median
  double compile_ms = 0.0;  ///< host time to build the pipeline (0 when reused)
  /// Where the evaluation's wall-clock time went, in ms: compile_ms (above) builds, then these. `total_ms` is the
  /// whole evaluation as the search saw it, from the end of the one before (batch builds, the journal and the
  /// search's own bookkeeping are the rest), 0 where the search did not time it.
  double verify_ms = 0.0, warmup_ms = 0.0, timing_ms = 0.0, total_ms = 0.0;
  /// Verified by the device check (screening; run/device_check.hpp), not by the host's walk over C.
  bool device_checked = false;
  /// Timed once and no more: its first batch was at least TuneOptions::cut_factor x the best so far.
  bool cut = false;
  /// A finalist's per-run time in its screening batch (0: not screened first), which its finals should repeat.
  double screen_us = 0.0;
  /// The driver's statistics of the config's pipelines (vk::PipelineStatistic), the split-k reduce pass's
  /// prefixed "reduce: "; empty where the device does not report them (VK_KHR_pipeline_executable_properties).
  std::vector<std::pair<std::string, double>> pipeline_statistics;

  /// Sets median_us, min_us, cv and gflops from samples_us and the problem's FLOP count.
  void summarize(double flops);
};

/// Finals median over screening time where the two differ by more than 15 % (either way), or nullopt (also where
/// either is missing): the same config timed twice on one device moved, so the device's state (its clocks coming
/// back from idle, heat) changed between the two. The H200 once screened a bf16 config at 454 us and took 536 us
/// in its finals (issue 21).
std::optional<double> timing_moved(double screen_us, double median_us);
/// The line `tune` prints under its best config where timing_moved says so, or nullopt.
std::optional<std::string> timing_moved_note(const Measurement& m);

/// A time given in microseconds, in the unit that reads at a glance: "41.8 us", "12.35 ms", "25.44 s", "5.6 min",
/// "2.1 h" (tables keep their columns in us).
std::string time_text(double us);

/// Median of the samples (mean of the middle two for an even count).
double median_of(std::vector<double> values);
/// Sample standard deviation over the mean (0 with fewer than 2 values or a zero mean).
double coefficient_of_variation(const std::vector<double>& values);

}  // namespace gemmtune
