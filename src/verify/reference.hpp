// The Eigen double-precision reference, computed once per problem from the rounded inputs, and the gathering
// of a device result out of its buffer image.
#pragma once

#include <cstdint>
#include <vector>

#include "core/problem.hpp"
#include "verify/operands.hpp"

namespace gemmtune {

/// activation(alpha * op(A) * op(B) + beta * C0 + bias) in double precision; dense row-major batch * M * N.
/// Integer types: sum of (op(A) - zero_a) * (op(B) - zero_b) computed in int64 and wrapped to int32 (held
/// exactly in the doubles).
std::vector<double> reference_gemm(const GemmProblem& problem, const HostOperands& operands);

/// v modulo 2^32 as a two's-complement int32.
int32_t wrap_to_int32(int64_t v);

/// The activation in double precision (relu, exact erf and tanh forms of GELU).
double reference_activation(Activation activation, double x);

struct GatheredResult {
  std::vector<float> values;   ///< the written region, dense row-major batch * M * N
  uint64_t touched = 0;        ///< elements outside the region whose bits changed (must be 0)
  uint64_t first_touched = 0;  ///< buffer index of the first of them
};

/// Splits a downloaded C image into the written region and a count of changed elements outside it.
GatheredResult gather_result(const GemmProblem& problem, const HostOperands& operands, const std::vector<float>& image);

}  // namespace gemmtune
