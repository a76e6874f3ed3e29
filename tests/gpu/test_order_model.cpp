// Deterministic mode proved against the host model of the documented summation order (verify/order_model.hpp,
// issue 19), on whole results rather than the runner's samples, in every layout a family serves, with and
// without an exact epilogue (bias, relu) applied to the model. The device's bits must equal the model with fma
// fused or not (GLSL leaves that to the driver; lavapipe rounds the product first), and the same model with the
// k ranges (three or more) or the partial sums in another order must differ, so a reordering cannot pass. The
// orders each family states (KernelFamily::summation_order) are the ones modelled: few-rows' slices, row-dot's
// chunks, xor butterfly and subgroups, the tiled kernel's chains, blocks and groups, split-k's ranges.
#include <algorithm>
#include <cstring>

#include "gpu/lavapipe_env.hpp"
#include "kernels/kernel_def.hpp"
#include "kernels/registry.hpp"
#include "run/gemm_runner.hpp"
#include "verify/operands.hpp"
#include "verify/order_model.hpp"

namespace gemmtune::test {

namespace {
size_t differing(const std::vector<float>& x, const std::vector<float>& y) {
  size_t n = 0;
  for (size_t i = 0; i < x.size(); ++i) n += std::memcmp(&x[i], &y[i], sizeof(float)) != 0;
  return n;
}

GemmProblem order_problem(Shape shape, DType dtype, Layout layout) {
  GemmProblem p;
  p.shape = shape;
  p.dtype = dtype;
  p.layout = layout;
  p.mode = Mode::deterministic;
  return p;
}

/// The model of the whole result with the problem's exact epilogue (bias added in f32, relu) applied.
std::vector<float> modelled_output(const GemmProblem& p, const HostOperands& o, const SummationOrder& order,
                                   const OrderVariant& v) {
  std::vector<float> c = modelled_result(p, o, order, v);
  const uint64_t bias0 = p.epilogue.bias ? o.layout.bias_extent - p.shape.n : 0;  // bias[0]'s index in its buffer
  for (uint64_t index = 0; index < c.size(); ++index) {
    if (p.epilogue.bias) c[index] = c[index] + o.bias[bias0 + index % p.shape.n];
    if (p.epilogue.activation == Activation::relu && c[index] < 0.0f) c[index] = 0.0f;
  }
  return c;
}
}  // namespace

class OrderModel : public GpuTest {};

namespace {
/// The device's result equals the model of the order the family states (fused or unfused fma, whichever the driver
/// does) and differs from that model with its partial sums (where three or more), and its ranges, in reverse.
void expect_documented_order(const std::string& name, const GemmProblem& p, const HostOperands& o,
                             const std::vector<float>& got, const SummationOrder& order, uint32_t subgroup = 0,
                             bool parts_can_differ = true) {
  const bool fused = differing(modelled_output(p, o, order, OrderVariant{true, subgroup}), got) == 0;
  const std::vector<float> expected = modelled_output(p, o, order, OrderVariant{fused, subgroup});
  ASSERT_EQ(expected.size(), got.size());
  EXPECT_EQ(differing(expected, got), 0u) << name << ": bits differ from the documented order (fused or not)";
  if (parts_can_differ) {
    EXPECT_GT(differing(modelled_output(p, o, order, OrderVariant{fused, subgroup, false, true}), got), 0u)
        << name << ": the check cannot see the partial sums' order";
  }
  if (order.splits > 2) {  // two ranges added either way give the same bits (addition commutes)
    EXPECT_GT(differing(modelled_output(p, o, order, OrderVariant{fused, subgroup, true, false}), got), 0u)
        << name << ": the check cannot see the ranges' order";
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
  const Case cases[] = {{order_problem({3, 77, 1000, 1}, DType::f32, Layout{false, false}), 8, 8, 4, 4},
                        {order_problem({5, 96, 1000, 2}, DType::bf16, Layout{true, false}), 16, 4, 1, 8},
                        {order_problem({2, 40, 520, 1}, DType::f16, Layout{false, false}), 8, 16, 8, 8}};
  const RunOptions options;
  for (const Case& cs : cases)
    for (Layout layout : kStoredKxN)
      for (bool epilogue : {false, true}) {
        const GemmProblem p = variant_of(cs.problem, layout, epilogue);
        const HostOperands operands = make_operands(p, options.seed, options.guard);
        GemmRunner runner(device(), p, options);
        for (uint32_t splits : {1u, 4u}) {  // two ranges add either way alike: SplitOnePass covers them
          const Config config{
              {{"cols", cs.cols}, {"slices", cs.slices}, {"unroll", cs.unroll}, {"vec", cs.vec}, {"splits", splits}}};
          const std::string name =
              family_named("fewrows").config_name(config, p.dtype) + " " + layout.name() + " " + p.epilogue.name();
          const Measurement m = runner.verify(family_named("fewrows"), config);
          ASSERT_EQ(m.disposition, Disposition::passed) << name << ": " << m.detail;
          expect_documented_order(name, p, operands, runner.last_result(),
                                  family_named("fewrows").summation_order(config, p, device().info()));
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
  const Case cases[] = {{order_problem({3, 21, 1000, 1}, DType::f32, Layout{false, true}), 64, 2, 2},
                        {order_problem({2, 19, 1003, 2}, DType::bf16, Layout{true, true}), 32, 4, 1},
                        {order_problem({4, 9, 1003, 1}, DType::f16, Layout{false, true}), 128, 1, 2}};
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
          const std::string name =
              family_named("rowdot").config_name(config, p.dtype) + " " + layout.name() + " " + p.epilogue.name();
          const Measurement m = runner.verify(family_named("rowdot"), config);
          ASSERT_EQ(m.disposition, Disposition::passed) << name << ": " << m.detail;
          // The subgroups' order shows where three or more of them have chunks of a range (one or two add alike:
          // the H200's subgroups of 32 at wg 32 and 64, or 32 chunks a range).
          const SummationOrder order = family_named("rowdot").summation_order(config, p, device().info());
          const uint64_t chunks = order.range_terms / (16 / dtype_bytes(p.dtype));
          expect_documented_order(name, p, operands, runner.last_result(), order, subgroup,
                                  std::min<uint64_t>(cs.wg, chunks) / subgroup > 2);
        }
      }
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
      {order_problem({40, 24, 1000, 1}, DType::f32, Layout{false, false}), &family_named("tiled"),
       tile(32, 32, 16, 4, 2), 1},
      {order_problem({33, 70, 300, 2}, DType::bf16, Layout{true, false}), &family_named("tiled"),
       tile(64, 32, 32, 4, 4), 1},
      {order_problem({17, 45, 1000, 1}, DType::f32, Layout{false, true}), &family_named("splitk"), split(16, 3), 3},
      {order_problem({17, 45, 1600, 1}, DType::f16, Layout{true, true}), &family_named("splitk"), split(32, 4), 4},
      {order_problem({9, 20, 301, 1}, DType::f32, Layout{false, false}), &family_named("naive"), Config{{{"wg", 64}}},
       1},
      {order_problem({9, 20, 301, 1}, DType::bf16, Layout{true, true}), &family_named("naive"), Config{{{"wg", 128}}},
       1}};
  const RunOptions options;
  for (const Case& cs : cases)
    for (Layout layout : kEveryLayout)
      for (bool epilogue : {false, true}) {
        const GemmProblem p = variant_of(cs.problem, layout, epilogue);
        const HostOperands operands = make_operands(p, options.seed, options.guard);
        GemmRunner runner(device(), p, options);
        const std::string name =
            cs.family->config_name(cs.config, p.dtype) + " " + layout.name() + " " + p.epilogue.name();
        const Measurement m = runner.verify(*cs.family, cs.config);
        ASSERT_EQ(m.disposition, Disposition::passed) << name << ": " << m.detail;
        const SummationOrder order = cs.family->summation_order(cs.config, p, device().info());
        ASSERT_EQ(order.splits, cs.splits) << name;
        expect_documented_order(name, p, operands, runner.last_result(), order);
      }
}

}  // namespace gemmtune::test
