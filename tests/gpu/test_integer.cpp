// 8-bit integer GEMM on the device: exact int32 results (bit for bit against the int64 reference, wrapped) at
// the extremes of every input type, with zero points, past int32's range, at odd shapes and in every layout.
#include <gtest/gtest.h>

#include <cstring>

#include "gpu/lavapipe_env.hpp"
#include "kernels/registry.hpp"
#include "kernels/spirv.hpp"
#include "run/gemm_runner.hpp"
#include "tuner/space.hpp"
#include "verify/metric.hpp"
#include "verify/reference.hpp"

namespace gemmtune::test {
namespace {

GemmProblem integer_problem(Shape shape, DType dtype, Layout layout = {}, int32_t zero_a = 0, int32_t zero_b = 0) {
  GemmProblem p;
  p.shape = shape;
  p.dtype = dtype;
  p.layout = layout;
  p.zero_a = zero_a;
  p.zero_b = zero_b;
  return p;
}

/// A config of the family for the problem: the `which`-th candidate (modulo their count), so cases spread
/// over the parameters.
/// With `vec` set, only configs with that vec count (few-rows' vector width).
Config some_config(const KernelFamily& family, const GemmProblem& p, size_t which, uint32_t vec = 0) {
  SearchSpace s = build_search_space({&family}, p, device().info());
  std::vector<Config> configs;
  for (const Candidate& c : s.candidates) {
    if (vec == 0 || c.config.get("vec") == vec) configs.push_back(c.config);
  }
  EXPECT_FALSE(configs.empty()) << family.name;
  return configs.empty() ? Config{} : configs[which % configs.size()];
}

/// Runs the problem and returns the int32 results (dense batch x M x N) after checking they pass exactly.
std::vector<int32_t> run_exact(const GemmProblem& p, size_t which, OperandFill fill = {},
                               const KernelFamily& family = family_named("tiled"), uint32_t vec = 0,
                               bool packed_dot = true) {
  RunOptions options;
  options.fill = fill;
  options.alternative_kernels = packed_dot;
  GemmRunner runner(device(), p, options);
  const Config config = some_config(family, p, which, vec);
  Measurement m = runner.verify(family, config);
  EXPECT_EQ(m.disposition, Disposition::passed)
      << family.config_name(config, p.dtype) << (packed_dot ? "" : " (plain)") << ": " << m.detail;
  EXPECT_EQ(m.error.bound, 0.0);
  std::vector<int32_t> out(runner.last_result().size());
  std::memcpy(out.data(), runner.last_result().data(), out.size() * 4);
  return out;
}

/// Whether the family serves the problem on this device. The integer coopmat kernel needs a device that lists
/// 8-bit cooperative matrices (the H200; not lavapipe): where it does not, the refusal must name the reason, and
/// the cases run on the devices that do.
bool served(const KernelFamily& family, const GemmProblem& p) {
  if (!family.not_applicable) return true;
  const std::optional<std::string> why = family.not_applicable(p, device().info());
  if (why && &family == &family_named("coopmat")) {
    EXPECT_NE(why->find("not supported on"), std::string::npos) << *why;
  }
  return !why;
}

class IntegerGemm : public GpuTest {};

TEST_F(IntegerGemm, ExtremesOfEveryTypeWithZeroPointsAreExact) {
  struct Case {
    DType dtype;
    float a, b;
    int32_t zero_a, zero_b;
    int64_t term;  // (a - zero_a) * (b - zero_b)
  };
  const Case cases[] = {
      {DType::i8, -128, -128, 0, 0, 16384},    {DType::i8, 127, 127, 0, 0, 16129},
      {DType::i8, -128, 127, 0, 0, -16256},    {DType::i8, 127, 127, -128, -128, 65025},
      {DType::u8, 255, 255, 0, 0, 65025},      {DType::u8, 255, 255, 255, 255, 0},
      {DType::u8, 0, 0, 255, 255, 65025},      {DType::u8i8, 255, -128, 0, 0, -32640},
      {DType::u8i8, 0, -128, 255, 127, 65025},
  };
  const uint64_t k = 4096;
  for (const KernelFamily* family : {&family_named("tiled"), &family_named("splitk"), &family_named("fewrows"),
                                     &family_named("naive"), &family_named("coopmat")}) {
    for (bool packed_dot : {true, false}) {
      for (const Case& c : cases) {
        GemmProblem p = integer_problem({16, 40, k, 1}, c.dtype, {}, c.zero_a, c.zero_b);
        if (!served(*family, p)) continue;
        const std::vector<int32_t> out = run_exact(p, size_t(c.a) + 3, OperandFill{c.a, c.b}, *family, 0, packed_dot);
        const int32_t expected = wrap_to_int32(c.term * int64_t(k));
        for (int32_t v : out)
          ASSERT_EQ(v, expected) << family->name << " " << dtype_name(c.dtype) << " a " << c.a << " b " << c.b;
      }
    }
  }
}

TEST_F(IntegerGemm, SumsPastInt32WrapLikeTwosComplement) {
  // 255 * 255 * 40000 = 2601000000 > 2^31 - 1: the int32 result is that minus 2^32.
  GemmProblem p = integer_problem({3, 5, 40000, 1}, DType::u8);
  for (const KernelFamily* family :
       {&family_named("tiled"), &family_named("splitk"), &family_named("fewrows"), &family_named("coopmat")}) {
    if (!served(*family, p)) continue;
    const std::vector<int32_t> out = run_exact(p, 1, OperandFill{255.0f, 255.0f}, *family);
    for (int32_t v : out) EXPECT_EQ(v, int32_t(int64_t(2601000000) - (int64_t(1) << 32))) << family->name;
  }
  // Negative overflow: -128 * 127 * 200000 = -3251200000 < -2^31; with zero points the packed-dot form's
  // correction terms wrap too (i8, zero points 1 and -2: (-129) * 129 * 70000 = -1164870000... times 2 rows).
  for (bool packed_dot : {true, false}) {
    GemmProblem q = integer_problem({2, 3, 200000, 1}, DType::i8);
    const std::vector<int32_t> neg =
        run_exact(q, 2, OperandFill{-128.0f, 127.0f}, family_named("tiled"), 0, packed_dot);
    for (int32_t v : neg) EXPECT_EQ(v, int32_t(int64_t(-3251200000) + (int64_t(1) << 32)));
    GemmProblem r = integer_problem({2, 3, 70000, 1}, DType::i8, {}, 1, -2);
    const std::vector<int32_t> zp = run_exact(r, 3, OperandFill{-128.0f, 127.0f}, family_named("tiled"), 0, packed_dot);
    for (int32_t v : zp) EXPECT_EQ(v, wrap_to_int32(int64_t(-129) * 129 * 70000));
    // Split-k: each range's partial sums and zero-point terms wrap on their own; the planes add to the same bits.
    const std::vector<int32_t> split =
        run_exact(r, 5, OperandFill{-128.0f, 127.0f}, family_named("splitk"), 0, packed_dot);
    for (int32_t v : split) EXPECT_EQ(v, wrap_to_int32(int64_t(-129) * 129 * 70000));
  }
}

class IntegerShapes : public GpuTest, public ::testing::WithParamInterface<std::tuple<DType, Layout>> {};

TEST_P(IntegerShapes, RandomValuesWithZeroPointsAreExactAtOddShapes) {
  const auto& [dtype, layout] = GetParam();
  const int32_t zero_a = a_signed(dtype) ? -3 : 131, zero_b = b_signed(dtype) ? 7 : 255;
  size_t which = 0;
  for (const Shape& s :
       {Shape{1, 1, 1, 1}, Shape{17, 33, 65, 1}, Shape{257, 129, 1031, 1}, Shape{9, 20, 4096, 1}, Shape{5, 6, 7, 3}}) {
    const GemmProblem p = integer_problem(s, dtype, layout, zero_a, zero_b);
    for (bool packed_dot : {true, false}) run_exact(p, which += 7, {}, family_named("tiled"), 0, packed_dot);
    run_exact(p, which, {}, family_named("naive"));
    if (served(family_named("splitk"), p)) {
      for (bool packed_dot : {true, false}) run_exact(p, which + 3, {}, family_named("splitk"), 0, packed_dot);
    }
    if (served(family_named("coopmat"), p)) {
      run_exact(p, which, {}, family_named("coopmat"));
      // Each zero point alone too: the kernel takes the row and column sums only where the other one is not 0.
      run_exact(integer_problem(s, dtype, layout, zero_a, 0), which + 1, {}, family_named("coopmat"));
      run_exact(integer_problem(s, dtype, layout, 0, zero_b), which + 2, {}, family_named("coopmat"));
    }
  }
}

TEST_P(IntegerShapes, FewRowsIsExactForUpTo16RowsAndEveryVectorWidth) {
  const auto& [dtype, layout] = GetParam();
  const int32_t zero_a = a_signed(dtype) ? 100 : 1, zero_b = b_signed(dtype) ? -100 : 200;
  // N = 48: 16-byte rows of B, so VEC 4 and 8 load whole words; N = 45: element by element. op(A) transposed
  // (few-rows reads it where it is stored) runs the two smaller shapes.
  size_t which = 1;
  const std::vector<Shape> shapes =
      layout.trans_a ? std::vector<Shape>{{5, 45, 300, 2}, {9, 48, 64, 1}}
                     : std::vector<Shape>{{1, 1, 1, 1}, {16, 48, 1031, 1}, {5, 45, 300, 2}, {9, 48, 64, 1}};
  for (const Shape& s : shapes) {
    for (uint32_t vec : {1u, 4u, 8u})
      run_exact(integer_problem(s, dtype, layout, zero_a, zero_b), which += 13, {}, family_named("fewrows"), vec);
  }
  EXPECT_TRUE(family_named("fewrows")
                  .not_applicable(integer_problem({17, 8, 8, 1}, dtype, layout), device().info())
                  .has_value());
}

INSTANTIATE_TEST_SUITE_P(EveryTypeAndLayout, IntegerShapes,
                         ::testing::Combine(::testing::Values(DType::i8, DType::u8, DType::u8i8),
                                            ::testing::Values(Layout{false, false}, Layout{false, true},
                                                              Layout{true, false}, Layout{true, true})));

TEST_F(IntegerGemm, PackedDotProductsAreUsedWhereTheDeviceHasThem) {
  const vk::DeviceInfo& d = device().info();
  const std::span<const uint32_t> chosen = family_named("tiled").module_for(DType::u8i8, d);
  EXPECT_EQ(chosen.data(),
            (d.matrix.integer_dot_product ? spirv_module("tiled_dot", DType::u8i8) : spirv_module("tiled", DType::u8i8))
                .data());
  EXPECT_EQ(family_named("tiled").module_for(DType::u8i8, d, false).data(), spirv_module("tiled", DType::u8i8).data());
  EXPECT_EQ(family_named("tiled").module_for(DType::f32, d).data(), spirv_module("tiled", DType::f32).data());
  vk::DeviceInfo without = d;
  without.matrix.integer_dot_product = false;
  EXPECT_EQ(family_named("tiled").module_for(DType::i8, without).data(), spirv_module("tiled", DType::i8).data());
  // The kernel hash covers both modules of an integer type.
  EXPECT_NE(family_named("tiled").kernel_hash(DType::i8), family_named("tiled").kernel_hash(DType::u8));
}

TEST_F(IntegerGemm, AWrongResultIsCaught) {
  // The check itself: the reference differs from what a kernel ignoring the zero points would give, and the
  // exact comparison fails on a single changed element.
  GemmProblem p = integer_problem({4, 4, 8, 1}, DType::u8, {}, 1, 2);
  HostOperands ops = make_operands(p, 5, 64);
  std::vector<double> ref = reference_gemm(p, ops);
  std::vector<float> bits(ref.size());
  for (size_t i = 0; i < ref.size(); ++i) {
    const int32_t v = int32_t(ref[i]);
    std::memcpy(&bits[i], &v, 4);
  }
  EXPECT_TRUE(compare_exact_int32(bits, ref).passed);
  int32_t changed = int32_t(ref[5]) + 1;
  std::memcpy(&bits[5], &changed, 4);
  ErrorStats st = compare_exact_int32(bits, ref);
  EXPECT_FALSE(st.passed);
  EXPECT_EQ(st.worst_index, 5u);
}

}  // namespace
}  // namespace gemmtune::test
