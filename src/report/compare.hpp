// `gemmtune compare BASE NEW`: the CI regression check between two tuning tables of one device. No GPU.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/table.hpp"

namespace gemmtune {

struct CompareOptions {
  double threshold = 0.05;    ///< a slowdown must exceed this fraction...
  double alpha = 0.05;        ///< ...and the samples' rank test must give p below this (tables with samples)...
  double noise_factor = 2.0;  ///< ...or, without samples, this many times the larger CV of the two best results
};

struct EntryComparison {
  std::string key;     ///< shape, dtype, layout and the rest, readable
  std::string status;  ///< "same", "faster", "regressed", "lost" (no verified result now), "new", "missing"
  std::string base_config, new_config;
  double base_us = 0, new_us = 0;
  double slowdown = 0;  ///< new_us / base_us - 1 (negative: faster)
  double noise = 0;     ///< noise_factor x max(base cv, new cv)
  /// How a change beyond the threshold was judged: "rank test" (both results have samples; p_value is the
  /// one-sided Mann-Whitney p of the change's direction), "noise band" (a table without samples), "noise band,
  /// too few samples" (no sets of these sizes can reach alpha, as a screened result's one sample) or "" (no
  /// change to judge).
  std::string evidence;
  double p_value = -1;
  std::string rerun;  ///< compare --rerun: what re-measuring both configs on this device found; empty otherwise
  std::optional<size_t> base_index, new_index;  ///< the entries compared, in BASE's and NEW's tables
};

struct Comparison {
  std::vector<EntryComparison> entries;  ///< base order, then entries only NEW has
  bool device_mismatch = false;
  std::string base_device, new_device;
  bool regressed() const;  ///< any "regressed" or "lost"
};

/// Compares entries with the same key. A slowdown of the best median beyond the threshold is a regression when the
/// two results' samples say it is real (Mann-Whitney U, one-sided, p < alpha), or, for tables without samples or
/// with too few to reach alpha, when it is also beyond the noise band; an entry whose verified result is gone is "lost"
/// (a regression too). Devices differ when the name, vendor or device id do (a driver update is reported, not refused).
Comparison compare_tables(const TuningTable& base, const TuningTable& fresh, const CompareOptions& options);

/// A suspected regression re-measured on this device (compare --rerun): both configs timed again, interleaved,
/// or why that could not be done.
struct Rerun {
  std::vector<double> base_samples_us, new_samples_us;
  std::string failure;
};

/// Judges a "regressed" entry again from its rerun: it stays a regression only when the rerun's medians and its lower
/// quartiles both differ by more than the threshold (the smaller change is the one reported) and its samples pass the
/// rank test; a failed rerun keeps the status and says why.
void apply_rerun(EntryComparison& entry, const Rerun& rerun, const CompareOptions& options);

/// Renders a comparison: "text", "md" (a CI job summary), "json" or "junit" (one test case per entry).
std::string render_comparison(const Comparison& c, const std::string& format, const CompareOptions& options);

/// "5%", "5", "0.5%" -> 0.05, 0.05, 0.005; anything else is a usage Error naming `option`.
double parse_percent(const std::string& text, const std::string& option);

}  // namespace gemmtune
