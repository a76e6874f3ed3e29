// The host model of a deterministic summation order and its sampled check (verify/order_model.hpp), without a
// device: a result the model produced passes, one changed element (the last, always sampled) or the same sums in
// another order fails, and the check says where.
#include <gtest/gtest.h>

#include <cmath>

#include "verify/operands.hpp"
#include "verify/order_model.hpp"

namespace gemmtune {
namespace {

/// A deterministic problem of `shape`, `dtype` and `layout` (alpha 1, beta 0, no epilogue).
GemmProblem deterministic(Shape shape, DType dtype, Layout layout) {
  GemmProblem p{};
  p.shape = shape, p.dtype = dtype, p.layout = layout, p.mode = Mode::deterministic;
  return p;
}

SummationOrder order_of(SummationOrder::Kind kind, uint32_t parts, uint32_t splits, uint64_t range_terms) {
  SummationOrder order;
  order.kind = kind;
  order.parts = parts;
  order.splits = splits;
  order.range_terms = range_terms;
  if (kind == SummationOrder::Kind::row_chunks) order.subgroup_widths = {8, 32};
  return order;
}

TEST(OrderModel, TheModelsOwnResultPassesAndAnyChangeOrReorderingFails) {
  GemmProblem p = deterministic({20, 37, 4003, 2}, DType::f32, Layout{false, true});
  p.alpha = 0.5f;
  p.beta = 0.25f;
  const HostOperands o = make_operands(p, 7, 16);
  const SummationOrder orders[] = {
      order_of(SummationOrder::Kind::chain, 1, 1, 4003), order_of(SummationOrder::Kind::tiled_groups, 1, 2, 2048),
      order_of(SummationOrder::Kind::slices, 8, 4, 1024), order_of(SummationOrder::Kind::row_chunks, 128, 4, 1024)};
  for (const SummationOrder& order : orders) {
    const std::string name = "kind " + std::to_string(int(order.kind));
    // Unfused, and (row-dot) at the second subgroup width: the check finds the variant the device ran.
    std::vector<float> got = modelled_result(p, o, order, OrderVariant{false, 32});
    const OrderCheck ok = check_summation_order(p, o, order, got, 64);
    EXPECT_TRUE(ok.passed) << name;
    EXPECT_EQ(ok.sampled, 64u) << name;  // 1480 elements, 64 sampled

    got.back() = std::nextafter(got.back(), 1e30f);
    const OrderCheck changed = check_summation_order(p, o, order, got, 64);
    EXPECT_FALSE(changed.passed) << name;
    EXPECT_EQ(changed.differing, 1u) << name;
    EXPECT_EQ(changed.first_index, got.size() - 1) << name;

    const OrderCheck reordered =
        check_summation_order(p, o, order, modelled_result(p, o, order, OrderVariant{false, 32, false, true}), 64);
    EXPECT_FALSE(reordered.passed) << name << ": the partial sums' order is not seen";
    EXPECT_GT(reordered.differing, 8u) << name;
    if (order.splits > 2) {
      const OrderCheck ranges =
          check_summation_order(p, o, order, modelled_result(p, o, order, OrderVariant{false, 32, true, false}), 64);
      EXPECT_FALSE(ranges.passed) << name << ": the ranges' order is not seen";
    }
  }
}

// f32 inputs: a product of two 16-bit floats is exact in f32, so fused and unfused agree there.
TEST(OrderModel, FusedAndUnfusedFmaDifferSoTheCheckCanTellWhichTheDeviceDid) {
  const GemmProblem p = deterministic({4, 9, 500, 1}, DType::f32, Layout{true, false});
  const HostOperands o = make_operands(p, 3, 0);
  const SummationOrder order = order_of(SummationOrder::Kind::chain, 1, 1, 500);
  const std::vector<float> fused = modelled_result(p, o, order, OrderVariant{true});
  const std::vector<float> unfused = modelled_result(p, o, order, OrderVariant{false});
  EXPECT_NE(fused, unfused);
  EXPECT_TRUE(check_summation_order(p, o, order, fused).passed);
  EXPECT_TRUE(check_summation_order(p, o, order, unfused).passed);
  // Half of each: neither variant explains every sample.
  std::vector<float> mixed = fused;
  for (size_t i = 0; i < mixed.size(); i += 2) mixed[i] = unfused[i];
  EXPECT_FALSE(check_summation_order(p, o, order, mixed).passed);
}

}  // namespace
}  // namespace gemmtune
