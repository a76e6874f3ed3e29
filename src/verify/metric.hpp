// The verification metric: max|gpu - ref| / max|ref| against a bound per input type, plus the largest
// element-wise relative error over elements whose |ref| exceeds 1e-3 of the largest.
#pragma once

#include <cstdint>
#include <span>

#include "core/measurement.hpp"

namespace gemmtune {

ErrorStats compare_with_reference(std::span<const float> gpu, std::span<const double> ref, double bound);

/// The largest |ref| of all elements (the metric's denominator), on every core for a large C.
double largest_magnitude(std::span<const double> ref);

/// Integer results: `gpu_bits` holds int32 bit patterns (C as downloaded), `ref` the wrapped exact sums. Passes
/// only when every element is equal; error and elementwise_rel are reported as above, bound 0.
ErrorStats compare_exact_int32(std::span<const float> gpu_bits, std::span<const double> ref);

}  // namespace gemmtune
