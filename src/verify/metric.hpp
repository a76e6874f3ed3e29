// The verification metric: max|gpu - ref| / max|ref| against a bound per input type, plus the largest
// element-wise relative error over elements whose |ref| exceeds 1e-3 of the largest.
#pragma once

#include <cstdint>
#include <span>

namespace gemmtune {

struct ErrorStats {
  double error = 0.0;            ///< max|gpu - ref| / max|ref| (infinity if any result is NaN or Inf)
  double elementwise_rel = 0.0;  ///< max |gpu - ref| / |ref| over |ref| > 1e-3 * max|ref|
  double bound = 0.0;
  uint64_t non_finite = 0;   ///< results that are NaN or Inf
  uint64_t worst_index = 0;  ///< element with the largest absolute error
  double epilogue = 0.0;     ///< with a bias or an activation: the elementwise epilogue error (epilogue_check.hpp)
  bool passed = false;       ///< error <= bound, everything finite, and max|ref| > 0 or exact
};

ErrorStats compare_with_reference(std::span<const float> gpu, std::span<const double> ref, double bound);

/// Integer results: `gpu_bits` holds int32 bit patterns (C as downloaded), `ref` the wrapped exact sums. Passes
/// only when every element is equal; error and elementwise_rel are reported as above, bound 0.
ErrorStats compare_exact_int32(std::span<const float> gpu_bits, std::span<const double> ref);

}  // namespace gemmtune
