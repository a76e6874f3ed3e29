// Deterministic mode proved against a host model of the documented summation order (issue 19), not only by two
// runs agreeing. The few-rows family (kernels/gemm_fewrows.comp): every column chains its terms with fma in
// increasing k within a slice (k = s, s + SLICES, ... inside its k range), the slices are added in slice order and
// the k ranges in range order, then alpha. (fma() may be fused or not: GLSL leaves it to the driver.) The model computes that in f32 on the host; the device's bits must equal
// it exactly. The same model with the ranges (three or more) or the slices in reverse must differ, so a reordering
// cannot pass.
#include <cmath>
#include <cstring>

#include "gpu/lavapipe_env.hpp"
#include "kernels/kernel_def.hpp"
#include "kernels/registry.hpp"
#include "run/gemm_runner.hpp"
#include "verify/operands.hpp"

namespace gemmtune::test {

namespace {
struct Order {
  bool fused = true;  ///< fma() as one rounding; GLSL lets a driver round the product first (lavapipe does)
  bool ranges_reversed = false;
  bool slices_reversed = false;
};

/// C (dense, batch x M x N) as the few-rows kernel sums it with `slices` slices and `splits` k ranges.
std::vector<float> fewrows_model(const GemmProblem& p, const HostOperands& o, uint32_t slices, uint32_t splits, Order order = {}) {
  const Shape& s = p.shape;
  const uint64_t range = splits > 1 ? split_range_terms(s.k, splits) : s.k;
  auto op_a = [&](uint64_t z, uint64_t i, uint64_t k) { return o.a[p.layout.trans_a ? o.layout.a.index(z, k, i) : o.layout.a.index(z, i, k)]; };
  auto op_b = [&](uint64_t z, uint64_t k, uint64_t j) { return o.b[p.layout.trans_b ? o.layout.b.index(z, j, k) : o.layout.b.index(z, k, j)]; };
  std::vector<float> c(s.batch * s.m * s.n);
  for (uint64_t z = 0; z < s.batch; ++z)
    for (uint64_t i = 0; i < s.m; ++i)
      for (uint64_t j = 0; j < s.n; ++j) {
        float total = 0.0f;
        for (uint32_t q = 0; q < splits; ++q) {
          const uint32_t r = order.ranges_reversed ? splits - 1 - q : q;
          const uint64_t k_begin = r * range, k_end = std::min<uint64_t>(s.k, k_begin + range);
          float range_sum = 0.0f;
          for (uint32_t u = 0; u < slices; ++u) {
            const uint32_t t = order.slices_reversed ? slices - 1 - u : u;
            float acc = 0.0f;
            for (uint64_t k = k_begin + t; k < k_end; k += slices) {
              const float a = op_a(z, i, k), b = op_b(z, k, j);
              acc = order.fused ? std::fma(a, b, acc) : a * b + acc;
            }
            range_sum = u == 0 ? acc : range_sum + acc;
          }
          total = q == 0 ? range_sum : total + range_sum;
        }
        c[(z * s.m + i) * s.n + j] = p.alpha * total;
      }
  return c;
}

size_t differing(const std::vector<float>& x, const std::vector<float>& y) {
  size_t n = 0;
  for (size_t i = 0; i < x.size(); ++i) n += std::memcmp(&x[i], &y[i], sizeof(float)) != 0;
  return n;
}

GemmProblem problem_of(Shape shape, DType dtype, Layout layout) {
  GemmProblem p;
  p.shape = shape;
  p.dtype = dtype;
  p.layout = layout;
  p.mode = Mode::deterministic;
  return p;
}
}  // namespace

class OrderModel : public GpuTest {};

TEST_F(OrderModel, FewRowsBitsEqualTheHostModelOfSlicesAndRanges) {
  struct Case {
    GemmProblem problem;
    uint32_t cols, slices, unroll, vec;
  };
  // Unaligned rows read in shifted units (N = 77), aligned vectors (N = 96), A transposed, batches, every type.
  const Case cases[] = {{problem_of({3, 77, 1000, 1}, DType::f32, Layout{false, false}), 8, 8, 4, 4},
                        {problem_of({5, 96, 1000, 2}, DType::bf16, Layout{true, false}), 16, 4, 1, 8},
                        {problem_of({2, 40, 520, 1}, DType::f16, Layout{false, false}), 8, 16, 8, 8}};
  const RunOptions options;
  for (const Case& cs : cases) {
    const HostOperands operands = make_operands(cs.problem, options.seed, options.guard);
    GemmRunner runner(device(), cs.problem, options);
    for (uint32_t splits : {1u, 2u, 4u}) {
      const Config config{{{"cols", cs.cols}, {"slices", cs.slices}, {"unroll", cs.unroll}, {"vec", cs.vec}, {"splits", splits}}};
      const std::string name = fewrows_family().config_name(config, cs.problem.dtype);
      const Measurement m = runner.verify(fewrows_family(), config);
      ASSERT_EQ(m.disposition, Disposition::passed) << name << ": " << m.detail;
      // The driver's fma: fused, or the product rounded first (both give the same bits for 16-bit inputs, whose
      // products are exact in f32); the order must then match exactly.
      const std::vector<float>& got = runner.last_result();
      const bool fused = differing(fewrows_model(cs.problem, operands, cs.slices, splits), got) == 0;
      const std::vector<float> model = fewrows_model(cs.problem, operands, cs.slices, splits, Order{fused});
      ASSERT_EQ(model.size(), got.size());
      EXPECT_EQ(differing(model, got), 0u) << name << ": bits differ from the documented order (fused or not)";
      // The check can fail: the same sums in another order give other bits somewhere.
      EXPECT_GT(differing(fewrows_model(cs.problem, operands, cs.slices, splits, Order{fused, false, true}), got), 0u) << name;
      if (splits > 2) {  // two ranges added either way give the same bits (addition commutes)
        EXPECT_GT(differing(fewrows_model(cs.problem, operands, cs.slices, splits, Order{fused, true, false}), got), 0u) << name;
      }
    }
  }
}

}  // namespace gemmtune::test
