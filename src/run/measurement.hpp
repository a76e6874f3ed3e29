// The outcome of evaluating one config: a disposition plus timing and verification figures.
#pragma once

#include <string>
#include <vector>

#include "verify/metric.hpp"

namespace gemmtune {

enum class Disposition {
  passed,          ///< ran and verified
  incorrect,       ///< ran, but failed verification: never chosen
  compile_failed,  ///< the pipeline could not be built
};

const char* disposition_name(Disposition d);

struct Measurement {
  Disposition disposition = Disposition::passed;
  std::string detail;               ///< why it failed, empty when passed
  ErrorStats error;
  std::vector<double> samples_us;   ///< timed samples, in order (each a batch mean, see runs_per_sample)
  uint32_t runs_per_sample = 1;     ///< dispatches per timed batch
  double median_us = 0.0, min_us = 0.0;
  double gflops = 0.0;              ///< from the median
  double compile_ms = 0.0;          ///< host time to build the pipeline (0 when reused)
};

/// Median of the samples (mean of the middle two for an even count).
double median_of(std::vector<double> values);

}  // namespace gemmtune
