#include "verify/metric.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace gemmtune {

ErrorStats compare_with_reference(std::span<const float> gpu, std::span<const double> ref, double bound) {
  ErrorStats st;
  st.bound = bound;
  double max_ref = 0.0, max_diff = 0.0;
  for (double r : ref) max_ref = std::max(max_ref, std::fabs(r));
  const double floor = 1e-3 * max_ref;
  for (size_t i = 0; i < gpu.size() && i < ref.size(); ++i) {
    const double g = gpu[i];
    if (!std::isfinite(g)) {
      ++st.non_finite;
      continue;
    }
    const double diff = std::fabs(g - ref[i]);
    if (diff > max_diff) {
      max_diff = diff;
      st.worst_index = i;
    }
    if (std::fabs(ref[i]) > floor && std::fabs(ref[i]) > 0.0)
      st.elementwise_rel = std::max(st.elementwise_rel, diff / std::fabs(ref[i]));
  }
  const bool size_ok = gpu.size() == ref.size();
  if (st.non_finite > 0 || !size_ok) {
    st.error = std::numeric_limits<double>::infinity();
  } else {
    st.error = max_ref > 0.0 ? max_diff / max_ref : max_diff;
  }
  st.passed = size_ok && st.non_finite == 0 && st.error <= bound;
  return st;
}

ErrorStats compare_exact_int32(std::span<const float> gpu_bits, std::span<const double> ref) {
  ErrorStats st;
  st.bound = 0.0;
  double max_ref = 0.0, max_diff = 0.0;
  uint64_t mismatches = 0;
  for (double r : ref) max_ref = std::max(max_ref, std::fabs(r));
  for (size_t i = 0; i < gpu_bits.size() && i < ref.size(); ++i) {
    int32_t g;
    std::memcpy(&g, &gpu_bits[i], 4);
    const double diff = std::fabs(double(g) - ref[i]);
    if (diff != 0.0) ++mismatches;
    if (diff > max_diff) {
      max_diff = diff;
      st.worst_index = i;
    }
    if (ref[i] != 0.0) st.elementwise_rel = std::max(st.elementwise_rel, diff / std::fabs(ref[i]));
  }
  const bool size_ok = gpu_bits.size() == ref.size();
  st.error = !size_ok ? std::numeric_limits<double>::infinity() : max_ref > 0.0 ? max_diff / max_ref : max_diff;
  st.passed = size_ok && mismatches == 0;
  return st;
}

}  // namespace gemmtune
