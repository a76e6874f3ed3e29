// Deterministic mode proved on every run, not only by two runs agreeing (issue 19): a host model in f32 of the
// summation order a config states (core/summation_order.hpp), compared bit for bit with the device's result on
// sampled elements. GLSL lets a driver fuse fma() or round the product first (lavapipe does the latter even
// under `precise`), so the model is computed both ways and the device must equal one of them everywhere.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/problem.hpp"
#include "core/summation_order.hpp"
#include "verify/operands.hpp"

namespace gemmtune {

/// The documented order (fma fused or not, at one of the order's subgroup widths), or that order rearranged
/// (tests show the comparison sees a rearrangement).
struct OrderVariant {
  bool fused = true;
  uint32_t subgroup = 0;         ///< row_chunks: the butterfly's width (0: the order's first)
  bool ranges_reversed = false;  ///< k ranges added last first
  bool parts_reversed = false;   ///< slices, subgroups, 128-term groups or the chain's k added last first
};

/// The value a config stores at dense index `index` (batch x M x N) before bias and activation: alpha * sum,
/// then beta * C added by fma (fused or not as the variant), the sum in `order`.
float modelled_element(const GemmProblem& problem, const HostOperands& operands, const SummationOrder& order,
                       const OrderVariant& variant, uint64_t index);

/// Every element of the result, dense batch x M x N, as modelled_element.
std::vector<float> modelled_result(const GemmProblem& problem, const HostOperands& operands,
                                   const SummationOrder& order, const OrderVariant& variant);

struct OrderCheck {
  bool passed = true;
  uint64_t sampled = 0;
  uint64_t differing = 0;    ///< sampled elements that differ from the closest variant
  uint64_t first_index = 0;  ///< the first of them, dense
  float got = 0.0f, expected = 0.0f;
};

/// Compares `got` (the device's result before bias and activation, dense) with the model at up to `max_samples`
/// elements spread over it (every element of a smaller result). Passes when the samples equal one variant
/// exactly: fused or unfused fma, at one of the order's subgroup widths.
OrderCheck check_summation_order(const GemmProblem& problem, const HostOperands& operands, const SummationOrder& order,
                                 std::span<const float> got, uint64_t max_samples = 256);

}  // namespace gemmtune
