// The outcome of evaluating one config: a disposition plus timing and verification figures.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "verify/metric.hpp"

namespace gemmtune {

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
  /// The driver's statistics of the config's pipelines (vk::PipelineStatistic), the split-k reduce pass's
  /// prefixed "reduce: "; empty where the device does not report them (VK_KHR_pipeline_executable_properties).
  std::vector<std::pair<std::string, double>> pipeline_statistics;

  /// Sets median_us, min_us, cv and gflops from samples_us and the problem's FLOP count.
  void summarize(double flops);
};

/// Median of the samples (mean of the middle two for an even count).
double median_of(std::vector<double> values);
/// Sample standard deviation over the mean (0 with fewer than 2 values or a zero mean).
double coefficient_of_variation(const std::vector<double>& values);

}  // namespace gemmtune
