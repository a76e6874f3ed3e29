// Block-quantized weights (q8_0, q4_0) on the device: every family that serves them (qrowdot for decoding, tiled and
// splitk for any M, coopmat and qrowmma where the device has the matrix units) verifies against the double
// product of the exactly decoded blocks, for f16 and f32 activations, in layouts nt and tt, at odd M and N, with
// padded rows, offsets, batches sharing one weight, the epilogue and cold copies (qrowdot with blocks loaded ahead
// and with groups of subgroups on different rows too); a block decoded wrongly is caught.
#include <gtest/gtest.h>

#include <set>

#include "gpu/lavapipe_env.hpp"
#include "kernels/registry.hpp"
#include "run/gemm_runner.hpp"
#include "tuner/space.hpp"
#include "verify/metric.hpp"
#include "verify/numeric.hpp"
#include "verify/quant_blocks.hpp"
#include "verify/reference.hpp"

namespace gemmtune::test {
namespace {

constexpr DType kQuantized[] = {DType::f16_q8_0, DType::f16_q4_0, DType::f32_q8_0, DType::f32_q4_0};

GemmProblem quantized_problem(Shape shape, DType dtype, bool trans_a) {
  GemmProblem p;
  p.shape = shape;
  p.dtype = dtype;
  p.layout = Layout{trans_a, true};
  return p;
}

/// Verifies the `which`-th candidate of the family (modulo their count) among those with parameter `param` at
/// `value` (every candidate where `param` is empty) and returns the measurement.
Measurement verify_some(const KernelFamily& family, const GemmProblem& p, size_t which, RunOptions options = {},
                        const std::string& param = "", uint32_t value = 0) {
  SearchSpace s = build_search_space({&family}, p, device().info());
  std::erase_if(s.candidates, [&](const Candidate& c) { return !param.empty() && c.config.get(param) != value; });
  EXPECT_FALSE(s.candidates.empty()) << family.name << " " << dtype_name(p.dtype) << " " << p.shape.to_string();
  if (s.candidates.empty()) return {};
  const Candidate& c = s.candidates[which % s.candidates.size()];
  GemmRunner runner(device(), p, options);
  Measurement m = runner.verify(family, c.config);
  EXPECT_EQ(m.disposition, Disposition::passed) << c.name << " at " << p.shape.to_string() << ": " << m.detail;
  EXPECT_EQ(m.error.bound, 2e-3) << c.name;
  return m;
}

class Quantized : public GpuTest, public ::testing::WithParamInterface<std::tuple<DType, bool>> {};

TEST_P(Quantized, DecodingRowsVerifyAtOddShapesWithEveryPlacement) {
  const auto& [dtype, trans_a] = GetParam();
  size_t which = 0;
  // Every mapping of invocations to blocks, a whole block each (lanes 1), a half (lanes 2) and a quarter (lanes 4),
  // taking turns so each meets both placements.
  uint32_t lanes = 1, groups = 2;
  for (const Shape& s : {Shape{1, 1, 32, 1}, Shape{3, 65, 96, 1}, Shape{16, 33, 544, 1}, Shape{5, 40, 256, 3}}) {
    GemmProblem p = quantized_problem(s, dtype, trans_a);
    verify_some(family_named("qrowdot"), p, which += 5, {}, "lanes", lanes);
    // Quarters of 2 or 4 blocks loaded ahead, the step past the range's last block included (K of 1 to 17 blocks).
    verify_some(family_named("qrowdot"), p, which += 7, {}, "ahead", s.k % 64 == 0 ? 4 : 2);
    // Groups of subgroups on different rows of B: the workgroup's last rows past N (N 33, 65) included.
    verify_some(family_named("qrowdot"), p, which += 11, {}, "groups", groups);
    groups = groups == 8 ? 2 : groups * 2;
    lanes = lanes == 4 ? 1 : 2 * lanes;
    p.b.ld = s.k + 64;                      // rows of B padded by two blocks
    p.b.offset = 96;                        // three blocks before it
    p.a.offset = 3;                         // A off its alignment
    if (s.batch > 1) p.b.batch_stride = 0;  // one weight for every product
    verify_some(family_named("qrowdot"), p, which += 3, {}, "lanes", lanes);
  }
}

TEST_P(Quantized, DecodingRowsVerifyByPackedDotProductsOnTheQuantizedActivations) {
  const auto& [dtype, trans_a] = GetParam();
  const KernelFamily& qrowdp = family_named("qrowdp");
  size_t which = 3;
  // Halves and quarters in turn, blocks ahead and groups of subgroups; K of 1 to 17 blocks, N past the workgroup's
  // rows, M past 8, a batch whose products each have their own op(A) (the pre-pass's regions) and then share B.
  uint32_t lanes = 2;
  for (const Shape& s : {Shape{1, 1, 32, 1}, Shape{3, 65, 96, 1}, Shape{16, 33, 544, 1}, Shape{5, 40, 256, 3}}) {
    GemmProblem p = quantized_problem(s, dtype, trans_a);
    const Measurement m = verify_some(qrowdp, p, which += 5, {}, "lanes", lanes);
    // Two 8-bit parts keep each element within 1/64516 of its block's largest: far inside the 2e-3 bound.
    EXPECT_LT(m.error.error, 1e-4) << p.shape.to_string();
    verify_some(qrowdp, p, which += 7, {}, "ahead", s.k % 64 == 0 ? 4 : 2);
    verify_some(qrowdp, p, which += 11, {}, "groups", 2);
    lanes = lanes == 4 ? 2 : 4;
    p.b.ld = s.k + 64;
    p.b.offset = 96;
    p.a.offset = 3;
    if (s.batch > 1) p.b.batch_stride = 0;
    verify_some(qrowdp, p, which += 3, {}, "lanes", lanes);
  }
}

TEST_P(Quantized, DecodingRowsVerifyOnTheMatrixUnitsWithFragmentsInRegistersAndStaged) {
  const auto& [dtype, trans_a] = GetParam();
  const KernelFamily& qrowmma = family_named("qrowmma");
  size_t which = 1;
  // M past 8 (rows g + 8 of op(A)), N past a block of rows, K of 1 to 17 blocks (trips past the range's end).
  for (const Shape& s : {Shape{1, 1, 32, 1}, Shape{3, 65, 96, 1}, Shape{16, 33, 544, 1}, Shape{9, 40, 256, 3}}) {
    GemmProblem p = quantized_problem(s, dtype, trans_a);
    const SearchSpace space = build_search_space({&qrowmma}, p, device().info());
    if (!space.not_applicable.empty()) {  // lavapipe: no cooperative matrices, and the refusal says so
      EXPECT_NE(space.not_applicable[0].reason.find("not supported on"), std::string::npos);
      continue;
    }
    for (uint32_t regs : {1u, 0u}) verify_some(qrowmma, p, which += 5, {}, "regs", regs);
    p.b.ld = s.k + 64;
    p.b.offset = 96;
    p.a.offset = 3;
    if (s.batch > 1) p.b.batch_stride = 0;
    for (uint32_t regs : {1u, 0u}) verify_some(qrowmma, p, which += 7, {}, "regs", regs);
  }
}

TEST_P(Quantized, PromptSizedProductsVerifyInTheTiledKernels) {
  const auto& [dtype, trans_a] = GetParam();
  size_t which = 2;
  // One shape a case, alternating between the layouts: odd M, and a batch of two with odd N.
  const Shape s = trans_a ? Shape{64, 17, 160, 2} : Shape{37, 72, 256, 1};
  {
    const GemmProblem p = quantized_problem(s, dtype, trans_a);
    verify_some(family_named("tiled"), p, which += 11, {}, "prepass", 0);
    verify_some(family_named("splitk"), p, which += 7);
    // B decoded once by the pre-pass: as stored, and with padded rows, an offset and one weight for every product.
    GemmProblem placed = p;
    placed.b.ld = s.k + 32;
    placed.b.offset = 64;
    if (s.batch > 1) placed.b.batch_stride = 0;
    for (const GemmProblem& q : {p, placed}) verify_some(family_named("tiled"), q, which += 13, {}, "prepass", 1);
    // The matrix units (f32 activations rounded to f16 while staging) where the device has f16 cooperative
    // matrices (the H200; not lavapipe, where the refusal must say why).
    const KernelFamily& coopmat = family_named("coopmat");
    const SearchSpace space = build_search_space({&coopmat}, p, device().info());
    if (!space.not_applicable.empty()) {
      EXPECT_NE(space.not_applicable[0].reason.find("not supported on"), std::string::npos);
    } else {
      verify_some(coopmat, p, which += 5, {}, "prepass", 0);
      verify_some(coopmat, p, which += 9, {}, "prepass", 0);
      verify_some(coopmat, placed, which += 6, {}, "prepass", 0);
      for (const GemmProblem& q : {p, placed}) verify_some(coopmat, q, which += 7, {}, "prepass", 1);
      GemmProblem padded = p;  // A's rows 16 bytes apart from 32-byte alignment in f32: the checked staging path
      padded.a.ld = (trans_a ? s.m : s.k) + 4;
      verify_some(coopmat, padded, which += 3, {}, "prepass", 0);
      verify_some(coopmat, padded, which += 4, {}, "prepass", 1);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryTypeAndLayout, Quantized,
                         ::testing::Combine(::testing::ValuesIn(kQuantized), ::testing::Values(false, true)));

class QuantizedGemm : public GpuTest {};

TEST_F(QuantizedGemm, TheEpilogueAndSplitsAndColdCopiesVerify) {
  GemmProblem p = quantized_problem({4, 50, 1024, 1}, DType::f16_q4_0, false);
  p.alpha = 0.5f;
  p.beta = -1.5f;
  p.epilogue.bias = true;
  p.epilogue.activation = Activation::gelu_tanh;
  const KernelFamily& qrowdot = family_named("qrowdot");
  SearchSpace s = build_search_space({&qrowdot}, p, device().info());
  // Split in 4 or more, the workgroup one group and several groups (each block's counter then covers their rows).
  std::set<bool> grouped;
  for (const Candidate& c : s.candidates) {
    if (c.config.get("splits") < 4 || !grouped.insert(c.config.get("groups") > 1).second) continue;
    GemmRunner runner(device(), p, RunOptions{});
    const Measurement m = runner.verify(qrowdot, c.config);
    EXPECT_EQ(m.disposition, Disposition::passed) << c.name << ": " << m.detail;
  }
  EXPECT_EQ(grouped.size(), 2u);
  RunOptions cold;
  cold.cold_bytes = 1 << 20;  // a few copies of A and the blocks, rotated between runs
  GemmRunner runner(device(), quantized_problem({2, 24, 96, 1}, DType::f32_q8_0, false), cold);
  SearchSpace small = build_search_space({&qrowdot}, runner.problem(), device().info());
  ASSERT_FALSE(small.candidates.empty());
  const Measurement m = runner.evaluate(qrowdot, small.candidates.front().config, 1, 2);
  EXPECT_EQ(m.disposition, Disposition::passed) << m.detail;
}

TEST_F(QuantizedGemm, TheDecodingPrePassCoversRowsOfSeveralWorkgroupsAndAShortLastOne) {
  // 67 blocks a row: the pre-pass's workgroups take 64 blocks of a row, so each row has a second one of 3 blocks.
  for (const DType dtype : {DType::f16_q4_0, DType::f32_q8_0}) {
    GemmProblem p = quantized_problem({9, 40, 67 * 32, 1}, dtype, false);
    p.b.ld = p.shape.k + 64;  // rows 2-byte but not 4-byte aligned in q4_0: 69 blocks of 18 bytes
    verify_some(family_named("tiled"), p, 3, {}, "prepass", 1);
  }
}

TEST_F(QuantizedGemm, EachPassOfAPlanIsTimedAloneInRunOrder) {
  // What `gemmtune bench` prints for a config of several passes: the pre-pass, then the main pass.
  const GemmProblem p = quantized_problem({8, 40, 256, 1}, DType::f16_q4_0, false);
  const Config config{{{"bm", 32}, {"bn", 32}, {"bk", 16}, {"tm", 4}, {"tn", 4}, {"prepass", 1}}};
  GemmRunner runner(device(), p, RunOptions{});
  const Measurement m = runner.evaluate(family_named("tiled"), config, 0, 1);
  ASSERT_EQ(m.disposition, Disposition::passed) << m.detail;
  const auto passes = runner.pass_times(family_named("tiled"), config, 2);
  ASSERT_EQ(passes.size(), 2u);
  EXPECT_EQ(passes[0].first, "prepass");
  EXPECT_EQ(passes[1].first, "main");
  for (const auto& [name, us] : passes) EXPECT_GT(us, 0.0) << name;
  // One pass: the main pass alone.
  const Config plain{{{"bm", 32}, {"bn", 32}, {"bk", 16}, {"tm", 4}, {"tn", 4}, {"prepass", 0}}};
  ASSERT_EQ(runner.evaluate(family_named("tiled"), plain, 0, 1).disposition, Disposition::passed);
  const auto one = runner.pass_times(family_named("tiled"), plain, 2);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].first, "main");
}

TEST_F(QuantizedGemm, DeterministicModeHoldsTheTiledKernelsToTheirSummationOrder) {
  GemmProblem p = quantized_problem({5, 40, 256, 1}, DType::f32_q4_0, true);
  p.mode = Mode::deterministic;
  for (const char* name : {"tiled", "splitk"}) {
    const Measurement m = verify_some(family_named(name), p, 4);
    EXPECT_TRUE(m.error.passed) << name;
  }
  EXPECT_TRUE(family_named("qrowdot").not_applicable(p, device().info()).has_value());
}

TEST_F(QuantizedGemm, TheOperandsHoldTheBlocksExactlyAndAWrongDecodingFails) {
  const GemmProblem p = quantized_problem({2, 3, 64, 1}, DType::f32_q4_0, false);
  const HostOperands ops = make_operands(p, 9, 64);
  // B's element (n, k) is at n * 64 + k + 64 (the guard): block (n * 64 + k + 64) / 32 of the device image.
  for (uint64_t n = 0; n < 3; ++n) {
    for (uint64_t k = 0; k < 64; ++k) {
      const uint64_t i = n * 64 + k + 64;
      EXPECT_EQ(double(ops.b[i]), block_element(BlockFormat::q4_0, &ops.b_device[i / 32 * 18], uint32_t(i % 32)));
    }
  }
  // The reference of nibbles read high-first differs from the right one by far more than the bound.
  HostOperands swapped = ops;
  for (uint64_t i = 64; i < 64 + 3 * 64; ++i) {
    const BlockValues v = decode_block(BlockFormat::q4_0, &ops.b_device[i / 32 * 18]);
    const uint32_t e = uint32_t(i % 32);
    swapped.b[i] = f16_to_f32(v.scale_bits) * float(v.codes[(e + 16) % 32]);
  }
  const std::vector<double> right = reference_gemm(p, ops), wrong = reference_gemm(p, swapped);
  std::vector<float> as_float(wrong.begin(), wrong.end());
  const ErrorStats e = compare_with_reference(as_float, right, 2e-3);
  EXPECT_FALSE(e.passed);
  EXPECT_GT(e.error, 2e-3);
}

TEST_F(QuantizedGemm, OtherFamiliesSayTheyHaveNoKernelAndTheDecodingFamiliesServeOnlyQuantizedB) {
  const GemmProblem p = quantized_problem({4, 64, 256, 1}, DType::f16_q8_0, false);
  SearchSpace s = build_search_space(kernel_families(), p, device().info());
  std::set<std::string> served;
  for (const Candidate& c : s.candidates) served.insert(c.family->name);
  // coopmat too where the device has f16 cooperative matrices (the H200, not lavapipe).
  std::set<std::string> want{"tiled", "splitk", "qrowdot"};
  if (!family_named("qrowdp").device_unsupported(p.dtype, device().info())) want.insert("qrowdp");
  if (!family_named("coopmat").device_unsupported(p.dtype, device().info())) want.insert("coopmat");
  if (!family_named("qrowmma").device_unsupported(p.dtype, device().info())) want.insert("qrowmma");
  EXPECT_EQ(served, want);
  for (const auto& n : s.not_applicable) {
    if (n.variant == "fewrows") {
      EXPECT_NE(n.reason.find("no kernel for f16:q8_0"), std::string::npos) << n.reason;
    }
  }
  GemmProblem dense = p;
  dense.dtype = DType::f16;
  EXPECT_TRUE(family_named("qrowdot").not_applicable(dense, device().info()).has_value());
  EXPECT_TRUE(family_named("qrowdp").not_applicable(dense, device().info()).has_value());
}

}  // namespace
}  // namespace gemmtune::test
