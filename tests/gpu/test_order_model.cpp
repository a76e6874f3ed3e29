// Deterministic mode proved against a host model of the documented summation order (issue 19), not only by two
// runs agreeing, in every layout a family serves, with and without an exact epilogue (bias, relu). The model
// computes each family's order in f32 on the host; the device's bits must equal it exactly
// (fma() fused or not: GLSL leaves that to the driver, and lavapipe rounds the product first), and the same model
// with the k ranges (three or more) or the partial sums in another order must differ, so a reordering cannot pass.
// - few-rows (kernels/gemm_fewrows.comp): every column chains its terms with fma in increasing k within a slice
//   (k = s, s + SLICES, ... inside its k range); the slices are added in slice order, the ranges in range order.
// - row-dot (kernels/gemm_rowdot.comp): invocation t chains the 16-byte chunks t, t + WG, ... of a row's aligned
//   body (V elements each, in k order), then the row's head and tail elements (t, t + WG, ...); each subgroup's
//   invocations are added by an xor butterfly, the subgroups in subgroup order, the ranges in range order.
// - tiled and split-k in deterministic mode (kernels/gemm_tiled.comp): chains of 16 products from zero, 32-term
//   blocks (two chains), 128-term groups (four blocks), the groups added in increasing k; split-k's planes in range
//   order (kernels/splitk_reduce.comp).
// - naive (kernels/gemm_naive.comp): one chain in increasing k.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

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
  bool parts_reversed = false;  ///< few-rows' slices, row-dot's subgroups
};

float fma_as(bool fused, float a, float b, float c) { return fused ? std::fma(a, b, c) : a * b + c; }

/// op(A)(z, i, k) and op(B)(k, j) of the host operands.
struct OpView {
  const GemmProblem& p;
  const HostOperands& o;
  float a(uint64_t z, uint64_t i, uint64_t k) const { return o.a[p.layout.trans_a ? o.layout.a.index(z, k, i) : o.layout.a.index(z, i, k)]; }
  float b(uint64_t z, uint64_t k, uint64_t j) const { return o.b[p.layout.trans_b ? o.layout.b.index(z, j, k) : o.layout.b.index(z, k, j)]; }
};

/// Adds the ranges' sums in range order (or reversed), applies alpha and the exact epilogues (bias, relu): C
/// (dense, batch x M x N).
template <typename RangeSum>
std::vector<float> over_ranges(const GemmProblem& p, const HostOperands& o, uint32_t splits, Order order, RangeSum range_sum) {
  const Shape& s = p.shape;
  const uint64_t range = splits > 1 ? split_range_terms(s.k, splits) : s.k;
  const uint64_t bias0 = p.epilogue.bias ? o.layout.bias_extent - s.n : 0;  // bias[0]'s index in its buffer
  std::vector<float> c(s.batch * s.m * s.n);
  for (uint64_t z = 0; z < s.batch; ++z)
    for (uint64_t i = 0; i < s.m; ++i)
      for (uint64_t j = 0; j < s.n; ++j) {
        float total = 0.0f;
        for (uint32_t q = 0; q < splits; ++q) {
          const uint32_t r = order.ranges_reversed ? splits - 1 - q : q;
          const float part = range_sum(z, i, j, r * range, std::min<uint64_t>(s.k, r * range + range));
          total = q == 0 ? part : total + part;
        }
        float v = p.alpha * total;
        if (p.epilogue.bias) v = v + o.bias[bias0 + j];
        if (p.epilogue.activation == Activation::relu) v = v < 0.0f ? 0.0f : v;
        c[(z * s.m + i) * s.n + j] = v;
      }
  return c;
}

/// C as the few-rows kernel sums it with `slices` slices and `splits` k ranges.
std::vector<float> fewrows_model(const GemmProblem& p, const HostOperands& o, uint32_t slices, uint32_t splits, Order order = {}) {
  const OpView op{p, o};
  return over_ranges(p, o, splits, order, [&](uint64_t z, uint64_t i, uint64_t j, uint64_t k_begin, uint64_t k_end) {
    float sum = 0.0f;
    for (uint32_t u = 0; u < slices; ++u) {
      const uint32_t t = order.parts_reversed ? slices - 1 - u : u;
      float acc = 0.0f;
      for (uint64_t k = k_begin + t; k < k_end; k += slices) acc = fma_as(order.fused, op.a(z, i, k), op.b(z, k, j), acc);
      sum = u == 0 ? acc : sum + acc;
    }
    return sum;
  });
}

/// C as the row-dot kernel sums it with workgroups of `wg` invocations, subgroups of `subgroup` and `splits` ranges.
std::vector<float> rowdot_model(const GemmProblem& p, const HostOperands& o, uint32_t wg, uint32_t subgroup, uint32_t splits, Order order = {}) {
  const OpView op{p, o};
  const uint64_t v = 16 / dtype_bytes(p.dtype);  // elements a chunk
  return over_ranges(p, o, splits, order, [&](uint64_t z, uint64_t i, uint64_t n, uint64_t kb, uint64_t ke) {
    // The row's aligned body: chunk c starts at k = head + c * V; whole chunks inside [kb, ke) only.
    const uint64_t shift = o.layout.b.index(z, n, 0) % v;
    const uint64_t head = shift == 0 ? 0 : v - shift;
    const uint64_t first = kb <= head ? 0 : (kb - head + v - 1) / v;
    const uint64_t chunks = ke > head ? (ke - head) / v : 0;
    const uint64_t body_begin = chunks > first ? head + first * v : std::clamp(head, kb, ke);
    const uint64_t body_end = chunks > first ? head + chunks * v : body_begin;
    std::vector<float> lanes(wg);
    for (uint32_t t = 0; t < wg; ++t) {
      float acc = 0.0f;
      for (uint64_t c = first + t; c < chunks; c += wg)
        for (uint64_t e = 0; e < v; ++e) acc = fma_as(order.fused, op.a(z, i, head + c * v + e), op.b(z, head + c * v + e, n), acc);
      for (auto [from, to] : {std::pair{kb, body_begin}, std::pair{body_end, ke}})
        for (uint64_t k = from + t; k < to; k += wg) acc = fma_as(order.fused, op.a(z, i, k), op.b(z, k, n), acc);
      lanes[t] = acc;
    }
    // Xor butterfly within each subgroup: every lane ends with the same bits (a + b = b + a).
    for (uint32_t d = 1; d < subgroup; d <<= 1) {
      std::vector<float> next(wg);
      for (uint32_t t = 0; t < wg; ++t) next[t] = lanes[t] + lanes[t ^ d];
      lanes = next;
    }
    float sum = 0.0f;
    for (uint32_t g = 0; g < wg / subgroup; ++g) {
      const uint32_t h = order.parts_reversed ? wg / subgroup - 1 - g : g;
      sum = g == 0 ? lanes[h * subgroup] : sum + lanes[h * subgroup];
    }
    return sum;
  });
}

/// C as the tiled kernel sums it in deterministic mode (any BK that is a multiple of 16), over `splits` ranges.
std::vector<float> tiled_model(const GemmProblem& p, const HostOperands& o, uint32_t splits, Order order = {}) {
  const OpView op{p, o};
  return over_ranges(p, o, splits, order, [&](uint64_t z, uint64_t i, uint64_t j, uint64_t kb, uint64_t ke) {
    std::vector<float> groups;
    float block = 0.0f, group = 0.0f;
    uint64_t chains = 0;
    for (uint64_t k0 = kb; k0 < ke; k0 += 16) {
      float chain = 0.0f;
      for (uint64_t k = k0; k < std::min(k0 + 16, ke); ++k) chain = fma_as(order.fused, op.a(z, i, k), op.b(z, k, j), chain);
      const bool second_half = (chains & 1) == 1;
      block = second_half ? block + chain : chain;
      ++chains;
      if (second_half) {
        const uint64_t blocks = chains / 2;
        group = (blocks - 1) % 4 == 0 ? block : group + block;
        if (blocks % 4 == 0) groups.push_back(group);
      }
    }
    const uint64_t blocks = chains / 2;  // the zero-filled tail of the last step completes every chain
    if ((chains & 1) == 1) {
      groups.push_back(blocks % 4 == 0 ? block : group + block);
    } else if (blocks % 4 != 0) {
      groups.push_back(group);
    }
    if (order.parts_reversed) std::reverse(groups.begin(), groups.end());
    float total = 0.0f;
    for (float g : groups) total = total + g;
    return total;
  });
}

/// C as the naive kernel sums it: one chain in increasing k (decreasing with parts_reversed).
std::vector<float> naive_model(const GemmProblem& p, const HostOperands& o, Order order = {}) {
  const OpView op{p, o};
  return over_ranges(p, o, 1, order, [&](uint64_t z, uint64_t i, uint64_t j, uint64_t kb, uint64_t ke) {
    float sum = 0.0f;
    for (uint64_t q = kb; q < ke; ++q) {
      const uint64_t k = order.parts_reversed ? ke - 1 - q : q;
      sum = fma_as(order.fused, op.a(z, i, k), op.b(z, k, j), sum);
    }
    return sum;
  });
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

namespace {
/// The device's result equals the model (fused or unfused fma, whichever the driver does) and differs from the
/// model with its partial sums, and its ranges where they can differ, in reverse.
void expect_documented_order(const std::string& name, const std::vector<float>& got, uint32_t splits,
                             const std::function<std::vector<float>(Order)>& model) {
  const bool fused = differing(model(Order{}), got) == 0;
  const std::vector<float> expected = model(Order{fused});
  ASSERT_EQ(expected.size(), got.size());
  EXPECT_EQ(differing(expected, got), 0u) << name << ": bits differ from the documented order (fused or not)";
  EXPECT_GT(differing(model(Order{fused, false, true}), got), 0u) << name << ": the check cannot see the partial sums' order";
  if (splits > 2) {  // two ranges added either way give the same bits (addition commutes)
    EXPECT_GT(differing(model(Order{fused, true, false}), got), 0u) << name << ": the check cannot see the ranges' order";
  }
}

/// The case's problem in `layout`, with a bias (3 elements into its buffer) and relu where `epilogue`.
GemmProblem variant_of(GemmProblem p, Layout layout, bool epilogue) {
  p.layout = layout;
  if (epilogue) p.epilogue = {true, 3, Activation::relu};
  return p;
}

const Layout kStoredKxN[] = {Layout{false, false}, Layout{true, false}};
const Layout kStoredNxK[] = {Layout{false, true}, Layout{true, true}};
const Layout kEveryLayout[] = {Layout{false, false}, Layout{false, true}, Layout{true, false}, Layout{true, true}};
}  // namespace

TEST_F(OrderModel, FewRowsBitsEqualTheHostModelOfSlicesAndRanges) {
  struct Case {
    GemmProblem problem;
    uint32_t cols, slices, unroll, vec;
  };
  // Unaligned rows read in shifted units (N = 77), aligned vectors (N = 96), batches, every type; both layouts of
  // op(A), with and without bias + relu.
  const Case cases[] = {{problem_of({3, 77, 1000, 1}, DType::f32, Layout{false, false}), 8, 8, 4, 4},
                        {problem_of({5, 96, 1000, 2}, DType::bf16, Layout{true, false}), 16, 4, 1, 8},
                        {problem_of({2, 40, 520, 1}, DType::f16, Layout{false, false}), 8, 16, 8, 8}};
  const RunOptions options;
  for (const Case& cs : cases)
    for (Layout layout : kStoredKxN)
      for (bool epilogue : {false, true}) {
        const GemmProblem p = variant_of(cs.problem, layout, epilogue);
        const HostOperands operands = make_operands(p, options.seed, options.guard);
        GemmRunner runner(device(), p, options);
        for (uint32_t splits : {1u, 4u}) {  // two ranges add either way alike: SplitOnePass covers them
          const Config config{{{"cols", cs.cols}, {"slices", cs.slices}, {"unroll", cs.unroll}, {"vec", cs.vec}, {"splits", splits}}};
          const std::string name = fewrows_family().config_name(config, p.dtype) + " " + layout.name() + " " + p.epilogue.name();
          const Measurement m = runner.verify(fewrows_family(), config);
          ASSERT_EQ(m.disposition, Disposition::passed) << name << ": " << m.detail;
          expect_documented_order(name, runner.last_result(), splits,
                                  [&](Order order) { return fewrows_model(p, operands, cs.slices, splits, order); });
        }
      }
}

TEST_F(OrderModel, RowDotBitsEqualTheHostModelOfChunksButterflyAndRanges) {
  struct Case {
    GemmProblem problem;
    uint32_t wg, rows, unroll;
  };
  // Aligned rows with op(A) read in chunks (K = 1000, A stored M x K), rows shifted differently with a head and a
  // tail each (K = 1003), batches, every type; A transposed too (the element path), with and without bias + relu.
  const Case cases[] = {{problem_of({3, 21, 1000, 1}, DType::f32, Layout{false, true}), 64, 2, 2},
                        {problem_of({2, 19, 1003, 2}, DType::bf16, Layout{true, true}), 32, 4, 1},
                        {problem_of({4, 9, 1003, 1}, DType::f16, Layout{false, true}), 128, 1, 2}};
  const RunOptions options;
  const uint32_t subgroup = device().info().subgroup_size;
  for (const Case& cs : cases)
    for (Layout layout : kStoredNxK)
      for (bool epilogue : {false, true}) {
        const GemmProblem p = variant_of(cs.problem, layout, epilogue);
        const HostOperands operands = make_operands(p, options.seed, options.guard);
        GemmRunner runner(device(), p, options);
        for (uint32_t splits : {1u, 4u}) {  // two ranges add either way alike: SplitOnePass covers them
          const Config config{{{"wg", cs.wg}, {"rows", cs.rows}, {"unroll", cs.unroll}, {"splits", splits}}};
          const std::string name = rowdot_family().config_name(config, p.dtype) + " " + layout.name() + " " + p.epilogue.name();
          const Measurement m = runner.verify(rowdot_family(), config);
          ASSERT_EQ(m.disposition, Disposition::passed) << name << ": " << m.detail;
          expect_documented_order(name, runner.last_result(), splits,
                                  [&](Order order) { return rowdot_model(p, operands, cs.wg, subgroup, splits, order); });
        }
      }
}

TEST_F(OrderModel, RefusesThePlantedOrderFaultsThatVerificationPasses) {
  // Each order-only planted fault (src/kernels/test_variants.cpp) passes the normwise verification, and its bits
  // match neither the fused nor the unfused model; the real family's do.
  size_t seen = 0;
  for (const PlantedFault& fault : planted_faults()) {
    if (!fault.order_only) continue;
    ASSERT_EQ(fault.base, &fewrows_family()) << fault.family->name << ": add its model here";
    for (DType dtype : {DType::f32, DType::f16, DType::bf16}) {
      const GemmProblem p = problem_of({3, 77, 1003, 1}, dtype, Layout{false, false});
      const RunOptions options;
      const HostOperands operands = make_operands(p, options.seed, options.guard);
      GemmRunner runner(device(), p, options);
      const Config config{{{"cols", 8}, {"slices", 8}, {"unroll", 4}, {"vec", 4}, {"splits", 4}}};
      auto matches = [&](const std::vector<float>& got) {
        return differing(fewrows_model(p, operands, 8, 4, Order{true}), got) == 0 ||
               differing(fewrows_model(p, operands, 8, 4, Order{false}), got) == 0;
      };
      ASSERT_EQ(runner.verify(fewrows_family(), config).disposition, Disposition::passed);
      EXPECT_TRUE(matches(runner.last_result())) << dtype_name(dtype);
      const Measurement m = runner.verify(*fault.family, config);
      EXPECT_EQ(m.disposition, Disposition::passed) << fault.family->name << ": within the bounds, as a reordering is";
      EXPECT_FALSE(matches(runner.last_result()))
          << fault.family->name << " " << dtype_name(dtype) << ": not refused (" << fault.what << ")";
    }
    ++seen;
  }
  EXPECT_EQ(seen, 1u);
}

TEST_F(OrderModel, TiledSplitKAndNaiveBitsEqualTheHostModel) {
  struct Case {
    GemmProblem problem;
    const KernelFamily* family;
    Config config;
    uint32_t splits;
  };
  auto tile = [](uint32_t bm, uint32_t bn, uint32_t bk, uint32_t tm, uint32_t tn) {
    return Config{{{"bm", bm}, {"bn", bn}, {"bk", bk}, {"tm", tm}, {"tn", tn}}};
  };
  auto split = [&](uint32_t bk, uint32_t splits) {
    Config c = tile(32, 32, bk, 4, 2);
    c.values.emplace_back("splits", splits);
    return c;
  };
  // K = 1000 and 300 leave partial chains, blocks and groups at the end of every range; every range holds three or
  // more groups, so their order shows. Every layout, with and without bias + relu.
  const Case cases[] = {
      {problem_of({40, 24, 1000, 1}, DType::f32, Layout{false, false}), &tiled_family(), tile(32, 32, 16, 4, 2), 1},
      {problem_of({33, 70, 300, 2}, DType::bf16, Layout{true, false}), &tiled_family(), tile(64, 32, 32, 4, 4), 1},
      {problem_of({17, 45, 1000, 1}, DType::f32, Layout{false, true}), &splitk_family(), split(16, 3), 3},
      {problem_of({17, 45, 1600, 1}, DType::f16, Layout{true, true}), &splitk_family(), split(32, 4), 4},
      {problem_of({9, 20, 301, 1}, DType::f32, Layout{false, false}), &naive_family(), Config{{{"wg", 64}}}, 1},
      {problem_of({9, 20, 301, 1}, DType::bf16, Layout{true, true}), &naive_family(), Config{{{"wg", 128}}}, 1}};
  const RunOptions options;
  for (const Case& cs : cases)
    for (Layout layout : kEveryLayout)
      for (bool epilogue : {false, true}) {
        const GemmProblem p = variant_of(cs.problem, layout, epilogue);
        const HostOperands operands = make_operands(p, options.seed, options.guard);
        GemmRunner runner(device(), p, options);
        const std::string name = cs.family->config_name(cs.config, p.dtype) + " " + layout.name() + " " + p.epilogue.name();
        const Measurement m = runner.verify(*cs.family, cs.config);
        ASSERT_EQ(m.disposition, Disposition::passed) << name << ": " << m.detail;
        const bool naive = cs.family == &naive_family();
        expect_documented_order(name, runner.last_result(), cs.splits, [&](Order order) {
          return naive ? naive_model(p, operands, order) : tiled_model(p, operands, cs.splits, order);
        });
      }
}

}  // namespace gemmtune::test
