#include "core/shape_needs.hpp"

#include "core/dispatch_rules.hpp"

namespace gemmtune {

uint64_t split_range_terms(uint64_t k, uint32_t splits) { return rules::split_range_terms(k, splits); }

bool split_ranges_fit(uint64_t k, uint32_t splits) { return rules::split_ranges_fit(k, splits); }

std::optional<std::string> unmet_shape_needs(const ShapeNeeds& needs, uint64_t m, uint64_t n, uint64_t k) {
  if (m > needs.max_m)
    return "M = " + std::to_string(m) + ": at most " + std::to_string(needs.max_m) + " rows of op(A)";
  if (n < needs.min_n) return "N = " + std::to_string(n) + ": at least " + std::to_string(needs.min_n);
  if (n % needs.n_multiple != 0)
    return "N = " + std::to_string(n) + " is not a multiple of " + std::to_string(needs.n_multiple);
  if (k < needs.min_k) return "K = " + std::to_string(k) + ": at least " + std::to_string(needs.min_k);
  if (k % needs.k_multiple != 0)
    return "K = " + std::to_string(k) + " is not a multiple of " + std::to_string(needs.k_multiple);
  if (!split_ranges_fit(k, needs.splits))
    return "K = " + std::to_string(k) + " does not give " + std::to_string(needs.splits) +
           " ranges of at least 64 terms (multiples of 32)";
  return std::nullopt;
}

}  // namespace gemmtune
