// The epilogue checked element by element. The product is verified normwise (max|gpu - ref| / max|ref|), which
// divides an activation's pointwise error by the largest result: a GELU constant cut to 4 digits errs by 5.7e-4
// near |x| = 1.5 and passes the f32 bound at K = 131. So the fused output is also compared, element by element,
// with the epilogue applied in double precision to the device's own pre-activation result (the unfused path's
// first pass: alpha * op(A) op(B) + beta * C, no bias, no activation), which a wrong constant, a shifted bias or
// a wrong activation cannot hide in.
#pragma once

#include <cstdint>
#include <span>

#include "core/problem.hpp"
#include "verify/operands.hpp"

namespace gemmtune {

/// |out - activation(t)| <= kEpilogueBound * max(1, |t|) for every element, t = z + bias_j in f32 (as the
/// device adds them): about 16 f32 ulps at |t| >= 1, where the device's exp-based erf and tanh are good to a few.
inline constexpr double kEpilogueBound = 1e-6;

struct EpilogueCheck {
  bool passed = true;
  double error = 0.0;                           ///< max |out - activation(t)| / max(1, |t|)
  uint64_t worst_index = 0;                     ///< in the dense batch * M * N result
  double pre = 0.0, got = 0.0, expected = 0.0;  ///< t, out and activation(t) at the worst element
};

/// `z`: the pre-activation result, `out`: the fused result, both dense batch * M * N as gathered. Non-finite t
/// (an overflow the product check allowed) must give an output of the same class.
EpilogueCheck check_epilogue(const GemmProblem& problem, const HostOperands& operands, std::span<const float> z,
                             std::span<const float> out);

}  // namespace gemmtune
