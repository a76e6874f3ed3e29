// What a kernel config needs of a problem's M, N and K on any device: each family states it
// (KernelFamily::shape_needs) and prunes configs by it; `gemmtune lookup` and the headers of `gemmtune export`
// decide by the same numbers whether a tuned config can run another shape.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gemmtune {

struct ShapeNeeds {
  uint64_t max_m = UINT64_MAX;  ///< rows of op(A) the kernel holds
  uint64_t min_n = 1, min_k = 1;
  uint64_t n_multiple = 1, k_multiple = 1;
  uint32_t splits = 1;  ///< split-k ranges: each of split_range_terms(K, splits) terms, at least 64, the last included
};

/// Terms per split-k range: ceil(K / S) rounded up to a multiple of 32.
uint64_t split_range_terms(uint64_t k, uint32_t splits);

/// K gives `splits` ranges of at least 64 terms each (one range: any K).
bool split_ranges_fit(uint64_t k, uint32_t splits);

/// Why M x N x K does not meet `needs` ("K = 193 does not give 3 ranges of at least 64 terms"), or nullopt.
std::optional<std::string> unmet_shape_needs(const ShapeNeeds& needs, uint64_t m, uint64_t n, uint64_t k);

}  // namespace gemmtune
