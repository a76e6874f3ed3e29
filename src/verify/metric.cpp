#include "verify/metric.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>

#include "verify/parallel_rows.hpp"

namespace gemmtune {

namespace {
// Elements a thread takes at least: a large C (134 M elements at 2048x2048x128x32) took a finalist's check about
// 2 s on one core, a small one would pay more for the threads than it saves.
constexpr uint64_t kLeastPerThread = 1u << 16;

/// What one chunk of elements found; chunks combine in any order to the figures a single pass gives (the worst
/// element is the first of the largest differences).
struct Partial {
  double max_diff = 0.0;
  uint64_t worst_index = 0;
  uint64_t non_finite = 0, mismatches = 0;
  double elementwise_rel = 0.0;
  void add(const Partial& p) {
    if (p.max_diff > max_diff || (p.max_diff == max_diff && p.max_diff > 0.0 && p.worst_index < worst_index)) {
      max_diff = p.max_diff;
      worst_index = p.worst_index;
    }
    non_finite += p.non_finite;
    mismatches += p.mismatches;
    elementwise_rel = std::max(elementwise_rel, p.elementwise_rel);
  }
};

/// `chunk(begin, end)` over [0, count) on every core, its Partials combined.
template <typename Fn>
Partial over_elements(uint64_t count, Fn&& chunk) {
  Partial total;
  std::mutex m;
  parallel_chunks(count, kLeastPerThread, [&](uint64_t begin, uint64_t end) {
    const Partial p = chunk(begin, end);
    const std::lock_guard<std::mutex> lock(m);
    total.add(p);
  });
  return total;
}
}  // namespace

double largest_magnitude(std::span<const double> ref) {
  double max_ref = 0.0;
  std::mutex m;
  parallel_chunks(ref.size(), kLeastPerThread, [&](uint64_t begin, uint64_t end) {
    double local = 0.0;
    for (uint64_t i = begin; i < end; ++i) local = std::max(local, std::fabs(ref[i]));
    const std::lock_guard<std::mutex> lock(m);
    max_ref = std::max(max_ref, local);
  });
  return max_ref;
}

ErrorStats compare_with_reference(std::span<const float> gpu, std::span<const double> ref, double bound) {
  ErrorStats st;
  st.bound = bound;
  const double max_ref = largest_magnitude(ref);
  const double floor = 1e-3 * max_ref;
  const Partial p = over_elements(std::min(gpu.size(), ref.size()), [&](uint64_t begin, uint64_t end) {
    Partial c;
    for (uint64_t i = begin; i < end; ++i) {
      const double g = gpu[i];
      if (!std::isfinite(g)) {
        ++c.non_finite;
        continue;
      }
      const double diff = std::fabs(g - ref[i]);
      if (diff > c.max_diff) {
        c.max_diff = diff;
        c.worst_index = i;
      }
      if (std::fabs(ref[i]) > floor && std::fabs(ref[i]) > 0.0)
        c.elementwise_rel = std::max(c.elementwise_rel, diff / std::fabs(ref[i]));
    }
    return c;
  });
  st.non_finite = p.non_finite;
  st.worst_index = p.worst_index;
  st.elementwise_rel = p.elementwise_rel;
  const bool size_ok = gpu.size() == ref.size();
  if (st.non_finite > 0 || !size_ok) {
    st.error = std::numeric_limits<double>::infinity();
  } else {
    st.error = max_ref > 0.0 ? p.max_diff / max_ref : p.max_diff;
  }
  st.passed = size_ok && st.non_finite == 0 && st.error <= bound;
  return st;
}

ErrorStats compare_exact_int32(std::span<const float> gpu_bits, std::span<const double> ref) {
  ErrorStats st;
  st.bound = 0.0;
  const double max_ref = largest_magnitude(ref);
  const Partial p = over_elements(std::min(gpu_bits.size(), ref.size()), [&](uint64_t begin, uint64_t end) {
    Partial c;
    for (uint64_t i = begin; i < end; ++i) {
      int32_t g;
      std::memcpy(&g, &gpu_bits[i], 4);
      const double diff = std::fabs(double(g) - ref[i]);
      if (diff != 0.0) ++c.mismatches;
      if (diff > c.max_diff) {
        c.max_diff = diff;
        c.worst_index = i;
      }
      if (ref[i] != 0.0) c.elementwise_rel = std::max(c.elementwise_rel, diff / std::fabs(ref[i]));
    }
    return c;
  });
  st.worst_index = p.worst_index;
  st.elementwise_rel = p.elementwise_rel;
  const bool size_ok = gpu_bits.size() == ref.size();
  st.error = !size_ok ? std::numeric_limits<double>::infinity() : max_ref > 0.0 ? p.max_diff / max_ref : p.max_diff;
  st.passed = size_ok && p.mismatches == 0;
  return st;
}

}  // namespace gemmtune
