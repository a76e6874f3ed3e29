// coopmat's aligning pre-pass (kernels/align_planes.comp, rules::Prepass::align_ab), run on lavapipe as its plan
// dispatches it: every 16-bit pattern of A and B lands where the host model of the planes (rules::AlignedPlanes, the
// layout the AB_PLANES build of gemm_coopmat.comp reads) puts it, bit for bit, and every padding element is zero.
#include <cstring>
#include <random>

#include "gpu/lavapipe_env.hpp"
#include "kernels/registry.hpp"
#include "kernels/spirv.hpp"
#include "vk/resources.hpp"

namespace gemmtune::test {

class AlignPlanes : public GpuTest {};

TEST_F(AlignPlanes, EveryElementLandsInItsAlignedRowAndThePaddingIsZeroInEveryLayout) {
  const KernelFamily& coopmat = family_named("coopmat");
  const Config config{
      {{"bm", 64}, {"bn", 64}, {"bk", 64}, {"sgm", 2}, {"sgn", 2}, {"splits", 1}, {"stages", 1}, {"prepass", 1}}};
  EXPECT_FALSE(prepass_spirv(rules::Prepass::align_ab, DType::bf16).empty());  // the f16 build moves bf16 too
  std::mt19937 rng(48);
  for (const bool trans_a : {false, true}) {
    for (const bool trans_b : {false, true}) {
      // Odd M and N, K past a multiple of 64, leading dimensions and offsets off 16 bytes (odd and even, so both
      // of the copy's word forms run), a batch of two with A shared by both products.
      rules::Operation op = rules::packed(13, 11, 70, trans_a, trans_b, 2, 2);
      op.lda += 3, op.ldb += 2, op.off_a = 5, op.off_b = 6, op.stride_a = 0;
      op.stride_b = (trans_b ? op.n : op.k) * op.ldb + 1;
      const rules::Plan plan = rules::plan(kernel_config(coopmat, config, DType::f16), op);
      ASSERT_EQ(plan.pass_count, 2u);
      ASSERT_EQ(plan.passes[0].module, kernel_config(coopmat, config, DType::f16).prepass_module);
      const uint64_t a_len = op.off_a + (trans_a ? op.k : op.m) * op.lda, b_len = op.off_b + 2 * op.stride_b;
      std::vector<uint16_t> a(a_len), b(b_len);
      for (uint16_t& x : a) x = uint16_t(rng());  // any pattern, NaN and infinity too: the copy moves bits
      for (uint16_t& x : b) x = uint16_t(rng());
      const std::vector<uint16_t> halves = run_prepass(plan, prepass_spirv(rules::Prepass::align_ab, DType::f16),
                                                       std::as_bytes(std::span(a)), std::as_bytes(std::span(b)));
      const rules::AlignedPlanes planes = rules::aligned_planes(op);
      EXPECT_EQ(planes.k, 128u);
      EXPECT_EQ(planes.ld_a % 8 + planes.ld_b % 8, 0u);
      int wrong = 0;
      auto check = [&](bool is_b, uint64_t z) {
        const uint64_t rows = is_b ? planes.rows_b : planes.rows_a, ld = is_b ? planes.ld_b : planes.ld_a;
        const bool trans = is_b ? trans_b : trans_a;
        // The operand as stored: rows of K (A as stored, B transposed) or of M or N.
        const uint64_t stored_rows = is_b ? (trans ? op.n : op.k) : (trans ? op.k : op.m);
        const uint64_t stored_cols = is_b ? (trans ? op.k : op.n) : (trans ? op.m : op.k);
        const uint64_t base = is_b ? planes.b_base(op, z) : planes.a_base(op, z);
        for (uint64_t r = 0; r < rows; ++r) {
          for (uint64_t c = 0; c < ld; ++c) {
            uint16_t want = 0;
            if (r < stored_rows && c < stored_cols)
              want = is_b ? b[op.off_b + z * op.stride_b + r * op.ldb + c]
                          : a[op.off_a + z * op.stride_a + r * op.lda + c];
            const uint16_t got = halves[base + r * ld + c];
            if (got != want && ++wrong < 5)
              ADD_FAILURE() << "trans " << trans_a << trans_b << " z " << z << (is_b ? " B" : " A") << " row " << r
                            << " col " << c << ": " << got << ", want " << want;
          }
        }
      };
      check(false, 0);  // A is shared: product 0's plane serves both
      check(true, 0);
      check(true, 1);
      EXPECT_EQ(wrong, 0) << trans_a << trans_b;
    }
  }
}

}  // namespace gemmtune::test
