#include "verify/metric.hpp"

#include <cmath>
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
    if (std::fabs(ref[i]) > floor && std::fabs(ref[i]) > 0.0) st.elementwise_rel = std::max(st.elementwise_rel, diff / std::fabs(ref[i]));
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

}  // namespace gemmtune
