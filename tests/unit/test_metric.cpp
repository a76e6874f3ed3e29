#include <algorithm>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/problem.hpp"
#include "verify/epilogue_check.hpp"
#include "verify/metric.hpp"
#include "verify/operands.hpp"
#include "verify/reference.hpp"

using namespace gemmtune;

namespace {
std::vector<float> as_float(const std::vector<double>& v) { return std::vector<float>(v.begin(), v.end()); }
}  // namespace

TEST(Metric, ExactResultPasses) {
  std::vector<double> ref = {1.0, -2.0, 3.0, 0.5};
  auto st = compare_with_reference(as_float(ref), ref, 1e-5);
  EXPECT_TRUE(st.passed);
  EXPECT_EQ(st.error, 0.0);
}

TEST(Metric, DeliberatelyPerturbedResultFails) {
  GemmProblem p{{31, 17, 45, 1}, DType::f32, 1.0f, 0.0f, {}, {}, {}, {}, {}, Mode::fast};
  auto ops = make_operands(p, 3, 0);
  auto ref = reference_gemm(p, ops);
  auto gpu = as_float(ref);
  ASSERT_TRUE(compare_with_reference(gpu, ref, 1e-5).passed);
  double max_ref = 0;
  for (double r : ref) max_ref = std::max(max_ref, std::fabs(r));
  gpu[100] += float(2e-5 * max_ref);  // twice the f32 bound
  auto st = compare_with_reference(gpu, ref, 1e-5);
  EXPECT_FALSE(st.passed);
  EXPECT_EQ(st.worst_index, 100u);
  EXPECT_NEAR(st.error, 2e-5, 1e-6);
}

TEST(Metric, NaNOrInfNeverPasses) {
  std::vector<double> ref = {1.0, 2.0};
  std::vector<float> gpu = {1.0f, std::numeric_limits<float>::quiet_NaN()};
  auto st = compare_with_reference(gpu, ref, 1.0);
  EXPECT_FALSE(st.passed);
  EXPECT_EQ(st.non_finite, 1u);
  gpu[1] = std::numeric_limits<float>::infinity();
  EXPECT_FALSE(compare_with_reference(gpu, ref, 1.0).passed);
}

TEST(Metric, ElementwiseErrorIgnoresTinyReferenceValues) {
  std::vector<double> ref = {1000.0, 1e-6};
  std::vector<float> gpu = {1000.0f, 2e-6f};  // 100 % off on an element below 1e-3 of the largest
  auto st = compare_with_reference(gpu, ref, 1e-5);
  EXPECT_TRUE(st.passed);
  EXPECT_EQ(st.elementwise_rel, 0.0);
}

TEST(Metric, ChunksOnEveryCoreGiveTheSinglePassFigures) {
  // Past 2^16 elements a thread the comparison splits over the cores; the worst element is still the first of the
  // largest differences, whichever chunk holds it, and counts add up.
  const size_t n = (size_t(1) << 18) + 123;
  std::vector<double> ref(n);
  for (size_t i = 0; i < n; ++i) ref[i] = std::sin(double(i)) * 4.0;
  std::vector<float> gpu = as_float(ref);
  const size_t first = n / 2 + 7, second = n - 3;  // two equal worst differences in different chunks
  gpu[first] = float(ref[first] + 0.5);
  gpu[second] = float(ref[second] + 0.5);
  gpu[100] = float(ref[100] + 0.25);
  ErrorStats st = compare_with_reference(gpu, ref, 1.0);
  EXPECT_EQ(st.worst_index, first);
  EXPECT_NEAR(st.error, (double(gpu[first]) - ref[first]) / 4.0, 1e-6);
  EXPECT_TRUE(st.passed);
  gpu[7] = std::numeric_limits<float>::quiet_NaN();
  gpu[n - 1] = std::numeric_limits<float>::infinity();
  st = compare_with_reference(gpu, ref, 1.0);
  EXPECT_EQ(st.non_finite, 2u);
  EXPECT_FALSE(st.passed);
  // Exact integers: one mismatch in the last chunk is found and named.
  std::vector<double> sums(n);
  std::vector<float> bits(n);
  for (size_t i = 0; i < n; ++i) {
    sums[i] = double(int32_t(i * 7919u % 100003u) - 50000);
    const int32_t v = int32_t(sums[i]) + (i == n - 5 ? 1 : 0);
    std::memcpy(&bits[i], &v, 4);
  }
  st = compare_exact_int32(bits, sums);
  EXPECT_FALSE(st.passed);
  EXPECT_EQ(st.worst_index, n - 5);
}

TEST(Reference, GatheringALargeCFindsTheFirstChangedElementOutsideTheRegion) {
  // C with padded rows past 2^16 elements: gathered on every core, the region row-major and the changed padding
  // counted with its first index.
  GemmProblem p;
  p.shape = {700, 120, 8, 2};
  p.c.ld = 128;
  const HostOperands ops = make_operands(p, 3, 8);
  std::vector<float> image = ops.c0;
  const ResolvedOperand& c = ops.layout.c;
  for (uint64_t z = 0; z < 2; ++z)
    for (uint64_t i = 0; i < 700; ++i)
      for (uint64_t j = 0; j < 120; ++j) image[c.index(z, i, j)] = float(z * 1000000 + i * 1000 + j);
  const uint64_t late = c.index(1, 650, 119) + 3, early = c.index(0, 400, 119) + 2;  // padding of two rows
  image[late] = 1.0f;
  image[early] = 2.0f;
  const GatheredResult g = gather_result(p, ops, image);
  EXPECT_EQ(g.touched, 2u);
  EXPECT_EQ(g.first_touched, early);
  ASSERT_EQ(g.values.size(), 2u * 700 * 120);
  EXPECT_EQ(g.values[(1 * 700 + 650) * 120 + 119], 1650119.0f);
  EXPECT_EQ(g.values[(0 * 700 + 3) * 120 + 5], 3005.0f);
}

TEST(Operands, AreSeededNonZeroAndRepresentable) {
  for (DType d : {DType::f32, DType::f16, DType::bf16}) {
    GemmProblem p{{7, 9, 11, 2}, d, 1.0f, 0.5f};
    auto a = make_operands(p, 42, 0), b = make_operands(p, 42, 0), c = make_operands(p, 43, 0);
    EXPECT_EQ(a.a, b.a);
    EXPECT_NE(a.a, c.a);
    EXPECT_EQ(a.a.size(), 2u * 7 * 11);
    EXPECT_EQ(a.c0.size(), 2u * 7 * 9);
    for (float v : a.a) {
      EXPECT_NE(v, 0.0f);
      EXPECT_LE(std::fabs(v), 1.0f);
    }
    EXPECT_EQ(a.a_device.size() % 4, 0u);
  }
}

TEST(Operands, WideRangeSpreadEachRowOverSixtyOctavesAndCancelPairsOfTerms) {
  for (const char* layout : {"nn", "tt"}) {
    GemmProblem p{{6, 5, 400, 2}, DType::f32, 1.0f, 0.0f};
    p.layout = parse_layout(layout);
    const HostOperands ops = make_operands(p, 5, 0, OperandFill{{}, {}, true});
    const ResolvedGemm& l = ops.layout;
    auto a = [&](uint64_t z, uint64_t i, uint64_t t) {
      return ops.a[p.layout.trans_a ? l.a.index(z, t, i) : l.a.index(z, i, t)];
    };
    auto b = [&](uint64_t z, uint64_t t, uint64_t j) {
      return ops.b[p.layout.trans_b ? l.b.index(z, j, t) : l.b.index(z, t, j)];
    };
    for (uint64_t z = 0; z < 2; ++z) {
      for (uint64_t i = 0; i < 6; ++i) {
        int lo = 99, hi = -99;
        for (uint64_t t = 0; t < 400; ++t) {
          int e;
          std::frexp(a(z, i, t), &e);
          lo = std::min(lo, e), hi = std::max(hi, e);
          if (t % 2 == 1) {
            EXPECT_EQ(a(z, i, t), a(z, i, t - 1));
          }
        }
        EXPECT_LE(lo, -25) << layout;  // 200 draws over 61 octaves reach both ends
        EXPECT_GE(hi, 26) << layout;
        EXPECT_GE(lo, -29) << layout;  // [1, 2) x 2^-30 has frexp exponent -29
        EXPECT_LE(hi, 31) << layout;
      }
      for (uint64_t t = 0; t + 1 < 400; t += 2) {
        for (uint64_t j = 0; j < 5; ++j) {
          const double ratio = -double(b(z, t + 1, j)) / double(b(z, t, j));
          EXPECT_NEAR(ratio, 1.0, std::ldexp(1.0, -10) * 1.001) << layout;
        }
      }
    }
  }
  EXPECT_THROW(make_operands(GemmProblem{{2, 2, 2, 1}, DType::f16, 1.0f, 0.0f}, 1, 0, OperandFill{{}, {}, true}),
               std::invalid_argument);
}

TEST(Reference, MatchesANaiveDoubleLoopWithAlphaBetaAndBatch) {
  GemmProblem p{{5, 6, 7, 3}, DType::bf16, 0.75f, -1.25f};
  auto ops = make_operands(p, 9, 0);
  auto ref = reference_gemm(p, ops);
  for (uint64_t z = 0; z < 3; ++z)
    for (uint64_t i = 0; i < 5; ++i)
      for (uint64_t j = 0; j < 6; ++j) {
        double acc = 0;
        for (uint64_t k = 0; k < 7; ++k) acc += double(ops.a[z * 35 + i * 7 + k]) * double(ops.b[z * 42 + k * 6 + j]);
        double want = 0.75 * acc - 1.25 * double(ops.c0[z * 30 + i * 6 + j]);
        EXPECT_NEAR(ref[z * 30 + i * 6 + j], want, 1e-12);
      }
}

// Rows are drawn from their own streams on several threads: a row's values depend on the seed, the operand and the
// row alone, never on how the rows were shared out (here: 300 rows against 301, chunks of 64 or more per core).
TEST(Operands, EachRowComesFromItsOwnStreamWhateverTheRowsAreSplitInto) {
  GemmProblem small{{300, 8, 64, 1}, DType::f16, 1.0f, 0.0f}, large{{301, 8, 64, 1}, DType::f16, 1.0f, 0.0f};
  small.layout = large.layout = {false, true};  // A stored M x K, B N x K: a row of each is contiguous
  const HostOperands s = make_operands(small, 7, 0), l = make_operands(large, 7, 0);
  ASSERT_EQ(s.a.size(), 300u * 64);
  EXPECT_TRUE(std::equal(s.a.begin(), s.a.end(), l.a.begin()));
  EXPECT_EQ(s.b, l.b);
  // Streams apart: neighbouring rows, and A's row 0 against B's.
  for (size_t r = 0; r + 1 < 300; ++r)
    EXPECT_FALSE(std::equal(s.a.begin() + r * 64, s.a.begin() + (r + 1) * 64, s.a.begin() + (r + 1) * 64)) << r;
  EXPECT_FALSE(std::equal(s.a.begin(), s.a.begin() + 64, s.b.begin()));
}

// Few rows and many columns: the reference splits the columns among the cores; each block must be the product's.
TEST(Reference, ColumnBlocksMatchANaiveDoubleLoop) {
  GemmProblem p{{3, 700, 40, 1}, DType::f32, 1.0f, 0.0f};
  const HostOperands ops = make_operands(p, 11, 0);
  const std::vector<double> ref = reference_gemm(p, ops);
  for (uint64_t i = 0; i < 3; ++i)
    for (uint64_t j = 0; j < 700; ++j) {
      double acc = 0;
      for (uint64_t k = 0; k < 40; ++k) acc += double(ops.a[i * 40 + k]) * double(ops.b[k * 700 + j]);
      ASSERT_NEAR(ref[i * 700 + j], acc, 1e-12) << i << "," << j;
    }
}

TEST(Reference, FollowsLayoutsStridesOffsetsAndTheEpilogue) {
  for (Activation act : {Activation::none, Activation::relu, Activation::gelu_erf, Activation::gelu_tanh}) {
    GemmProblem p;
    p.shape = {4, 5, 6, 3};
    p.dtype = DType::f16;
    p.alpha = 0.5f;
    p.beta = -1.5f;
    p.layout = {true, true};
    p.a.ld = 7;            // A stored K x M = 6 x 4, ld 7
    p.b.ld = 9;            // B stored N x K = 5 x 6, ld 9
    p.b.batch_stride = 0;  // one shared B
    p.c.ld = 8;
    p.c.offset = 3;
    p.epilogue = {true, 2, act};
    auto ops = make_operands(p, 5, 16);
    auto ref = reference_gemm(p, ops);
    const ResolvedGemm& l = ops.layout;
    EXPECT_EQ(l.b.stride, 0u);
    for (uint64_t z = 0; z < 3; ++z)
      for (uint64_t i = 0; i < 4; ++i)
        for (uint64_t j = 0; j < 5; ++j) {
          double acc = 0;
          for (uint64_t k = 0; k < 6; ++k) acc += double(ops.a[l.a.index(z, k, i)]) * double(ops.b[l.b.index(0, j, k)]);
          double v = 0.5 * acc - 1.5 * double(ops.c0[l.c.index(z, i, j)]) + double(ops.bias[16 + 2 + j]);
          EXPECT_NEAR(ref[(z * 4 + i) * 5 + j], reference_activation(act, v), 1e-12);
        }
  }
}

TEST(Operands, PaddingIsNaNAndCOutsideTheRegionHoldsSentinels) {
  GemmProblem p;
  p.shape = {3, 4, 5, 2};
  p.a.ld = 6;
  p.c.ld = 6;
  auto ops = make_operands(p, 1, 8);
  EXPECT_TRUE(std::isnan(ops.a[0]));      // guard band
  EXPECT_TRUE(std::isnan(ops.a[8 + 5]));  // ld padding of row 0
  EXPECT_FALSE(std::isnan(ops.a[8 + 4]));
  uint32_t bits;
  std::memcpy(&bits, &ops.c0[8 + 4], 4);  // ld padding of C
  EXPECT_EQ(bits, kUntouchedBits);
  EXPECT_TRUE(std::isnan(ops.c0[8]));  // beta = 0: the region is NaN
  GemmProblem zero_alpha = p;
  zero_alpha.alpha = 0.0f;
  for (float v : make_operands(zero_alpha, 1, 8).a) EXPECT_TRUE(std::isnan(v));
}

TEST(IntegerReference, IsTheWrappedInt64SumWithZeroPoints) {
  EXPECT_EQ(wrap_to_int32(int64_t(1) << 31), INT32_MIN);
  EXPECT_EQ(wrap_to_int32(-(int64_t(1) << 31) - 1), INT32_MAX);
  EXPECT_EQ(wrap_to_int32(2601000000), int32_t(2601000000 - 4294967296));
  GemmProblem p;
  p.shape = {3, 4, 5, 2};
  p.dtype = DType::u8i8;
  p.zero_a = 200;
  p.zero_b = -7;
  p.layout = Layout{true, true};
  auto ops = make_operands(p, 11, 3);
  for (float v : ops.a) EXPECT_TRUE(std::isnan(v) || (v >= 0 && v <= 255 && v == std::floor(v)));
  for (float v : ops.b) EXPECT_TRUE(std::isnan(v) || (v >= -128 && v <= 127 && v == std::floor(v)));
  auto ref = reference_gemm(p, ops);
  const ResolvedGemm& l = ops.layout;
  for (uint64_t z = 0; z < 2; ++z)
    for (uint64_t i = 0; i < 3; ++i)
      for (uint64_t j = 0; j < 4; ++j) {
        int64_t acc = 0;
        for (uint64_t k = 0; k < 5; ++k) {
          // Transposed: A stored K x M, B stored N x K.
          acc += (int64_t(ops.a[l.a.index(z, k, i)]) - 200) * (int64_t(ops.b[l.b.index(z, j, k)]) + 7);
        }
        EXPECT_EQ(ref[(z * 3 + i) * 4 + j], double(acc));
      }
  // The device encoding: one byte per element, two's complement for signed values, unread bytes marked.
  const std::vector<uint8_t> bytes = encode_for_device({-128.0f, 127.0f, -1.0f, std::nanf("")}, DType::i8);
  EXPECT_EQ(bytes, (std::vector<uint8_t>{0x80, 0x7f, 0xff, kUnreadByte}));
  EXPECT_EQ(encode_for_device({255.0f, 0.0f, 1.0f, 2.0f, 3.0f}, DType::u8).size(), 8u);
}

TEST(EpilogueCheck, CatchesAWrongGeluConstantAndAShiftedBiasThatTheNormwiseMetricPasses) {
  // 31 x 131 x K = 131 in f32 with bias and gelu-tanh: the pre-activation values z as the device would give them
  // (the reference, rounded), the output computed by a correct epilogue and by two faulty ones.
  GemmProblem p{{31, 131, 131, 1}, DType::f32, 1.0f, 0.0f};
  p.epilogue = {true, 0, Activation::gelu_tanh};
  const HostOperands ops = make_operands(p, 11, 0);
  GemmProblem product = p;
  product.epilogue = {};
  const std::vector<float> z = as_float(reference_gemm(product, ops));
  const std::vector<double> ref = reference_gemm(p, ops);
  const uint64_t n = p.shape.n, bias0 = resolve(p).bias_extent - n;
  auto epilogue = [&](double sqrt_2_over_pi, int bias_shift) {
    std::vector<float> out(z.size());
    for (size_t e = 0; e < z.size(); ++e) {
      const uint64_t j = std::min<uint64_t>(e % n + bias_shift, n - 1);
      const double t = double(z[e] + ops.bias[bias0 + j]);
      out[e] = float(0.5 * t * (1.0 + std::tanh(sqrt_2_over_pi * (t + 0.044715 * t * t * t))));
    }
    return out;
  };
  const std::vector<float> good = epilogue(std::sqrt(2.0 / M_PI), 0), cut = epilogue(0.7978, 0),
                           shifted = epilogue(std::sqrt(2.0 / M_PI), 1);
  EXPECT_TRUE(check_epilogue(p, ops, z, good).passed) << check_epilogue(p, ops, z, good).error;
  // The cut constant errs by about 2.5e-5 near |x| = 1.5; divided by max|ref|, the normwise metric sees less than
  // its f32 bound, the elementwise check more than 10 times its own.
  EXPECT_TRUE(compare_with_reference(cut, ref, dtype_error_bound(DType::f32)).passed);
  const EpilogueCheck c = check_epilogue(p, ops, z, cut);
  EXPECT_FALSE(c.passed);
  EXPECT_GT(c.error, 10 * kEpilogueBound);
  EXPECT_FALSE(check_epilogue(p, ops, z, shifted).passed);
  // NaN where the activation gives a number is an error of its own.
  std::vector<float> nan = good;
  nan[5] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(check_epilogue(p, ops, z, nan).passed);
}

TEST(TimeText, EachTimeInTheUnitThatReadsAtAGlance) {
  EXPECT_EQ(gemmtune::time_text(41.84), "41.8 us");
  EXPECT_EQ(gemmtune::time_text(999.9), "999.9 us");
  EXPECT_EQ(gemmtune::time_text(1250.3), "1.25 ms");
  EXPECT_EQ(gemmtune::time_text(25440808.5), "25.44 s");
  EXPECT_EQ(gemmtune::time_text(0.0), "0.0 us");
  EXPECT_EQ(gemmtune::time_text(334e6), "5.6 min");
  EXPECT_EQ(gemmtune::time_text(2.1 * 3600e6), "2.1 h");
}
