#include "verify/epilogue_check.hpp"

#include <algorithm>
#include <cmath>

#include "verify/reference.hpp"

namespace gemmtune {

EpilogueCheck check_epilogue(const GemmProblem& problem, const HostOperands& operands, std::span<const float> z,
                             std::span<const float> out) {
  EpilogueCheck check;
  const Shape& s = problem.shape;
  const uint64_t count = s.batch * s.m * s.n;
  if (z.size() != count || out.size() != count) {
    check.passed = false;
    check.error = INFINITY;
    return check;
  }
  const ResolvedGemm& l = operands.layout;
  for (uint64_t e = 0; e < count; ++e) {
    const uint64_t j = e % s.n;
    // The device adds the bias in f32 before the activation: so does this, exactly.
    const float t = problem.epilogue.bias ? z[e] + operands.bias[l.bias_extent - s.n + j] : z[e];
    const double expected = reference_activation(problem.epilogue.activation, double(t));
    const double got = out[e];
    double error;
    if (!std::isfinite(expected) || !std::isfinite(got)) {
      const bool same = (std::isnan(expected) && std::isnan(got)) || expected == got;
      error = same ? 0.0 : INFINITY;
    } else {
      error = std::fabs(got - expected) / std::max(1.0, std::fabs(double(t)));
    }
    if (e == 0 || error > check.error) {
      check.error = std::max(check.error, error);
      check.worst_index = e;
      check.pre = t;
      check.got = got;
      check.expected = expected;
    }
  }
  check.passed = check.error <= kEpilogueBound;
  return check;
}

}  // namespace gemmtune
