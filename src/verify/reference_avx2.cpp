// The reference's products compiled with AVX2 and FMA (src/CMakeLists.txt), called only where the CPU has them
// (reference_product_block). Eigen's namespace is renamed in this file: its templates instantiated here are then other
// symbols than the baseline build's, so the linker cannot put this file's AVX2 code in their place (one name, one
// definition). The `reference_avx2_isolated` test checks that every weak symbol this object defines is in the renamed
// namespace.
#define Eigen gemmtune_eigen_avx2
#include <Eigen/Dense>

#include "verify/reference_product.hpp"

namespace gemmtune {

namespace {
#include "verify/reference_product.inc"
}  // namespace

void product_block_avx2(const DenseProduct& p, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
  product_block_impl(p, r0, r1, c0, c1);
}

}  // namespace gemmtune
