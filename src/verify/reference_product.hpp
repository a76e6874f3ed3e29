// The host reference's double products, built twice from the same Eigen code: for the x86-64 baseline (SSE2,
// reference_product.cpp) and, where the CPU has them, with AVX2 and FMA (reference_avx2.cpp: 2.5x the baseline's rate
// on a 1024^3 product), so a large problem's reference takes a smaller share of a short tuning budget.
#pragma once

#include <cstdint>

namespace gemmtune {

/// C = alpha A B in row-major doubles: A m x k, B k x n, C m x n, each row contiguous.
struct DenseProduct {
  const double* a = nullptr;
  const double* b = nullptr;
  double* c = nullptr;
  int64_t m = 0, n = 0, k = 0;
  double alpha = 1.0;
};

/// Computes rows [r0, r1) x columns [c0, c1) of C (blocks on different threads write disjoint parts).
using ProductBlockFn = void (*)(const DenseProduct& p, int64_t r0, int64_t r1, int64_t c0, int64_t c1);

void product_block_baseline(const DenseProduct& p, int64_t r0, int64_t r1, int64_t c0, int64_t c1);
/// The AVX2 + FMA build: only where cpu_has_avx2_fma() (it is linked in on x86-64 only).
void product_block_avx2(const DenseProduct& p, int64_t r0, int64_t r1, int64_t c0, int64_t c1);
bool cpu_has_avx2_fma();

/// The fastest build this CPU runs; GEMMTUNE_REFERENCE_BASELINE=1 in the environment picks the baseline (tests
/// compare the two).
ProductBlockFn reference_product_block();

}  // namespace gemmtune
