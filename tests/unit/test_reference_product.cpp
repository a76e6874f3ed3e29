// The host reference's two builds of its double products (verify/reference_product.hpp): the AVX2 + FMA one agrees
// with the baseline's to double rounding on blocks at odd offsets, and is the one chosen where the CPU has it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <vector>

#include "verify/reference_product.hpp"

namespace gemmtune {
namespace {

TEST(ReferenceProduct, TheVectorisedBuildAgreesWithTheBaselineOnOddBlocksAndIsChosenWhereTheCpuHasIt) {
  const int64_t m = 97, n = 131, k = 517;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> a(size_t(m * k)), b(size_t(k * n));
  for (double& x : a) x = u(rng);
  for (double& x : b) x = u(rng);
  std::vector<double> base(size_t(m * n), -7.0), fast(size_t(m * n), -7.0);
  DenseProduct p{a.data(), b.data(), base.data(), m, n, k, 1.5};
  // Two blocks, one at an odd row and column, and the rest of C left as it was.
  product_block_baseline(p, 0, 40, 0, 64);
  product_block_baseline(p, 41, 97, 3, 131);
  p.c = fast.data();
  const ProductBlockFn chosen = reference_product_block();
  chosen(p, 0, 40, 0, 64);
  chosen(p, 41, 97, 3, 131);
  double worst = 0.0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const size_t at = size_t(i * n + j);
      const bool written = (i < 40 && j < 64) || (i >= 41 && j >= 3);
      if (!written) {
        EXPECT_EQ(fast[at], -7.0) << i << "," << j;
        continue;
      }
      double expected = 0.0;
      for (int64_t t = 0; t < k; ++t) expected += a[size_t(i * k + t)] * b[size_t(t * n + j)];
      expected *= 1.5;
      worst = std::max(worst, std::abs(fast[at] - base[at]));
      EXPECT_NEAR(base[at], expected, 1e-12) << i << "," << j;
    }
  EXPECT_LT(worst, 1e-12);  // sums of 517 terms of magnitude 1: only the order and the fused roundings differ
  EXPECT_EQ(chosen == product_block_avx2, cpu_has_avx2_fma());
  setenv("GEMMTUNE_REFERENCE_BASELINE", "1", 1);
  EXPECT_EQ(reference_product_block(), product_block_baseline);
  unsetenv("GEMMTUNE_REFERENCE_BASELINE");
}

}  // namespace
}  // namespace gemmtune
