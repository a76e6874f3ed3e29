// How a deterministic config adds one element's products: each kernel family states its order here
// (KernelFamily::summation_order) and the runner's host model (verify/order_model.hpp) reproduces it in f32 and
// compares bits on sampled elements, so a kernel that reorders its sums is refused, not only one that errs.
#pragma once

#include <cstdint>
#include <vector>

namespace gemmtune {

struct SummationOrder {
  enum class Kind {
    chain,         ///< one fma chain in increasing k (naive)
    tiled_groups,  ///< chains of 16 products from zero, 32-term blocks (two chains), 128-term groups (four blocks),
                   ///< the groups added in increasing k (tiled and split-k in deterministic mode)
    slices,        ///< `parts` fma chains, chain s over k = s, s + parts, ...; the chains added in order (few-rows)
    row_chunks,    ///< `parts` invocations; invocation t chains the 16-byte chunks t, t + parts, ... of the row of B's
                   ///< aligned body, then the head and tail elements t, t + parts, ...; an xor butterfly over each
                   ///< subgroup, the subgroups added in order (row-dot)
  };
  Kind kind = Kind::chain;
  uint32_t parts = 1;
  /// row_chunks: the subgroup widths the device may run the kernel at (the model takes whichever matches).
  std::vector<uint32_t> subgroup_widths;
  uint32_t splits = 1;       ///< k ranges, added in range order
  uint64_t range_terms = 0;  ///< terms a range (the last one takes the rest); with one range, K
};

}  // namespace gemmtune
