#include "verify/reference_product.hpp"

#include <Eigen/Dense>
#include <cstdlib>
#include <cstring>

namespace gemmtune {

namespace {
#include "verify/reference_product.inc"
}  // namespace

void product_block_baseline(const DenseProduct& p, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
  product_block_impl(p, r0, r1, c0, c1);
}

bool cpu_has_avx2_fma() {
#if defined(GEMMTUNE_REFERENCE_AVX2)
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

ProductBlockFn reference_product_block() {
  const char* forced = std::getenv("GEMMTUNE_REFERENCE_BASELINE");
  if (forced && std::strcmp(forced, "1") == 0) return product_block_baseline;
#if defined(GEMMTUNE_REFERENCE_AVX2)
  if (cpu_has_avx2_fma()) return product_block_avx2;
#endif
  return product_block_baseline;
}

}  // namespace gemmtune
