// The host model of f32 GEMM on 16-bit matrix units (src/verify/split_model.hpp): its splits, and which schemes
// meet f32's accuracy on the tuner's inputs and on wide-range inputs with cancellation (issue 44).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "verify/split_model.hpp"

namespace gemmtune {
namespace {

struct Operands {
  std::vector<float> a, b;
  uint32_t m, n, k;
};

/// The tuner's inputs: uniform in [-1, 1].
Operands uniform(uint32_t m, uint32_t n, uint32_t k, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  Operands o{std::vector<float>(size_t(m) * k), std::vector<float>(size_t(k) * n), m, n, k};
  for (float& x : o.a) x = u(rng);
  for (float& x : o.b) x = u(rng);
  return o;
}

/// Each row of A and column of B spread over 2^-30..2^30 with random signs, and every other term of a dot
/// product cancelling its neighbour to about 2^-10 of its size (B's pair of rows negated and nudged).
Operands wide(uint32_t m, uint32_t n, uint32_t k, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> exponent(-30.0f, 30.0f), unit(1.0f, 2.0f), nudge(-1.0f, 1.0f);
  std::bernoulli_distribution sign(0.5);
  auto value = [&] { return (sign(rng) ? -1.0f : 1.0f) * unit(rng) * std::exp2(std::round(exponent(rng))); };
  Operands o{std::vector<float>(size_t(m) * k), std::vector<float>(size_t(k) * n), m, n, k};
  for (float& x : o.a) x = value();
  for (float& x : o.b) x = value();
  for (uint32_t t = 0; t + 1 < k; t += 2) {
    for (uint32_t i = 0; i < m; ++i) o.a[size_t(i) * k + t + 1] = o.a[size_t(i) * k + t];
    for (uint32_t j = 0; j < n; ++j)
      o.b[size_t(t + 1) * n + j] = -o.b[size_t(t) * n + j] * (1.0f + std::ldexp(nudge(rng), -10));
  }
  return o;
}

SplitErrors errors_of(const Operands& o, const SplitModel* model) {
  const std::vector<float> c =
      model ? split_gemm(o.a, o.b, o.m, o.n, o.k, *model) : native_gemm(o.a, o.b, o.m, o.n, o.k);
  return split_errors(c, o.a, o.b, o.m, o.n, o.k);
}

TEST(SplitModel, Bf16PartsSumToTheValueAndF16PartsCarry22Bits) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> exponent(-100.0f, 100.0f), unit(1.0f, 2.0f);  // parts stay normal
  for (int i = 0; i < 20000; ++i) {
    const float x = (i % 2 ? -1.0f : 1.0f) * unit(rng) * std::exp2(std::round(exponent(rng)));
    const std::vector<float> p = bf16_parts(x, 3);
    EXPECT_EQ(double(p[0]) + double(p[1]) + double(p[2]), double(x)) << x;
    EXPECT_LE(std::fabs(p[1]), std::ldexp(std::fabs(p[0]), -8)) << x;
    const float y = std::ldexp(unit(rng), -1 - i % 12);  // |y| in [2^-12, 1): f16's normal range after scaling
    const std::vector<float> h = f16_parts(y);
    EXPECT_LE(std::fabs(double(y) - (double(h[0]) + double(h[1]) / 2048.0)), std::ldexp(double(y), -21)) << y;
  }
}

// The units truncate their sums: the high products' sum leaves them every k step (a zeroed fragment added to an f32
// accumulator outside), or the bias of truncation grows with K.
TEST(SplitModel, TruncatingUnitsNeedTheHighProductFlushedEveryKStep) {
  const Operands o = uniform(32, 32, 1024, 1);
  const SplitErrors native = errors_of(o, nullptr);
  const SplitModel flushed{SplitScheme::f16x3, UnitRounding::toward_zero, 32, false, true};
  SplitModel kept = flushed;
  kept.block_k = 0;
  EXPECT_LE(errors_of(o, &flushed).normwise, native.normwise);
  EXPECT_GE(errors_of(o, &kept).normwise, 10 * native.normwise);
}

// Issue 44's bar: within f32's bounds and never more than 4x native f32's error, on the tuner's inputs and on rows
// and columns spread over 2^-30..2^30 with cancellation. bf16x6 with both sums flushed every k step meets it on
// every measure; bf16x3 misses it even on uniform data; f16x3 meets it on uniform data but not on wide-range data,
// where scaling whole rows and columns cannot keep a small element of A that meets a large one of B.
TEST(SplitModel, Bf16x6MeetsF32sBarOnAnyDataWhereBf16x3AndF16x3DoNot) {
  const SplitModel bf16x6{SplitScheme::bf16x6, UnitRounding::toward_zero, 32, true, true};
  SplitModel corrections_kept = bf16x6;
  corrections_kept.block_corrections = false;  // one unit accumulator of corrections: 13-21x on wide data
  const Operands spread_data = wide(48, 48, 1024, 2);
  EXPECT_GT(errors_of(spread_data, &corrections_kept).elementwise, 4 * errors_of(spread_data, nullptr).elementwise);
  const SplitModel bf16x3{SplitScheme::bf16x3, UnitRounding::toward_zero, 32, true, true};
  const SplitModel f16x3{SplitScheme::f16x3, UnitRounding::toward_zero, 32, true, true};
  for (const Operands& o : {uniform(48, 48, 1024, 1), wide(48, 48, 1024, 2)}) {
    const SplitErrors native = errors_of(o, nullptr);
    const SplitErrors e = errors_of(o, &bf16x6);
    EXPECT_LE(e.normwise, 4 * native.normwise);
    EXPECT_LE(e.elementwise, 4 * native.elementwise);
    EXPECT_LE(e.relative, 4 * native.relative);
    // The kernel's form: both steps' sums into one f32 accumulator, the corrections first.
    SplitModel one = bf16x6;
    one.one_accumulator = true;
    const SplitErrors k = errors_of(o, &one);
    EXPECT_LE(k.normwise, 4 * native.normwise);
    EXPECT_LE(k.elementwise, 4 * native.elementwise);
    EXPECT_LE(k.relative, 4 * native.relative);
  }
  const Operands flat = uniform(48, 48, 1024, 1);
  const SplitErrors flat_native = errors_of(flat, nullptr);
  EXPECT_LE(errors_of(flat, &bf16x6).normwise, 1e-5);
  EXPECT_GT(errors_of(flat, &bf16x3).normwise, 4 * flat_native.normwise);
  EXPECT_LE(errors_of(flat, &f16x3).normwise, flat_native.normwise);
  const Operands spread = wide(48, 48, 1024, 2);
  EXPECT_GT(errors_of(spread, &f16x3).elementwise, 4 * errors_of(spread, nullptr).elementwise);
  SplitModel unscaled = f16x3;
  unscaled.scale_rows = false;  // 2^30 overflows f16
  EXPECT_TRUE(std::isinf(errors_of(spread, &unscaled).normwise));
}

}  // namespace
}  // namespace gemmtune
