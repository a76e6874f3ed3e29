// The Eigen double-precision reference, computed once per problem from the rounded inputs.
#pragma once

#include <vector>

#include "core/problem.hpp"
#include "verify/operands.hpp"

namespace gemmtune {

/// alpha * A * B + beta * C0 in double precision, per batch product; row-major batch * M * N.
std::vector<double> reference_gemm(const GemmProblem& problem, const HostOperands& operands);

}  // namespace gemmtune
