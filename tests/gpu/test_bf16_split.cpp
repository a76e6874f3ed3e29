// The bf16x6 kernel's split (kernels/common/bf16_split.glsl), run on lavapipe: every f32 value's three bfloat16 parts
// are the host model's (src/verify/split_model.hpp) bit for bit, sum to the value, and are packed as the part tiles
// hold them; infinities, NaN and values past bfloat16's largest keep their meaning; the pre-pass that splits whole
// operands once (kernels/split_planes.comp) writes every element's parts where the planes build of the kernel reads.
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "gpu/lavapipe_env.hpp"
#include "kernels/registry.hpp"
#include "kernels/spirv.hpp"
#include "verify/numeric.hpp"
#include "verify/split_model.hpp"
#include "vk/resources.hpp"

namespace gemmtune::test {

namespace {
/// The kernel's parts of `values` (a multiple of 8), as [value][part] 16-bit patterns.
std::vector<std::array<uint16_t, 3>> device_parts(const std::vector<float>& values) {
  const uint32_t groups = uint32_t(values.size() / 8);
  const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  vk::Buffer in(device(), values.size() * 4, storage, true), out(device(), groups * 48, storage, true);
  std::memcpy(in.mapped(), values.data(), values.size() * 4);
  std::memset(out.mapped(), 0xAB, groups * 48);
  vk::ComputePipeline split(device(), spirv_module("test_bf16_split_f32"), {}, {in.handle(), out.handle()}, 4);
  vk::Submitter submitter(device(), 10'000'000'000ull);
  submitter.run([&](VkCommandBuffer cmd) { split.record_dispatch(cmd, &groups, (groups + 63) / 64, 1, 1); });
  const auto* words = static_cast<const uint32_t*>(out.mapped());
  std::vector<std::array<uint16_t, 3>> parts(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    for (uint32_t part = 0; part < 3; ++part) {
      // Group g's part vector is words 12 g + 4 part ..; element e of the group in word e / 2, low half first.
      const uint32_t word = words[(i / 8) * 12 + part * 4 + (i % 8) / 2];
      parts[i][part] = uint16_t(i % 2 == 0 ? word & 0xffffu : word >> 16);
    }
  }
  return parts;
}

float from_bf16(uint16_t bits) { return std::bit_cast<float>(uint32_t(bits) << 16); }
}  // namespace

class Bf16Split : public GpuTest {};

TEST_F(Bf16Split, PartsAreTheHostModelsAndSumToTheValue) {
  std::mt19937 rng(44);
  std::uniform_real_distribution<float> exponent(-100.0f, 100.0f), unit(1.0f, 2.0f), flat(-1.0f, 1.0f);
  std::vector<float> values;
  for (int i = 0; i < 4096; ++i) {
    values.push_back((i % 2 ? -1.0f : 1.0f) * unit(rng) * std::exp2(std::round(exponent(rng))));
    values.push_back(flat(rng));  // the tuner's inputs
  }
  // Ties: a value halfway between two bfloat16 values rounds to the even one.
  values.push_back(std::bit_cast<float>(0x3f808000u));  // 1.00390625: between 0x3f80 and 0x3f81 -> 0x3f80
  values.push_back(std::bit_cast<float>(0x3f818000u));  // between 0x3f81 and 0x3f82 -> 0x3f82
  while (values.size() % 8) values.push_back(0.0f);
  const auto parts = device_parts(values);
  int wrong = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    const std::vector<float> want = bf16_parts(values[i], 3);
    const float hi = from_bf16(parts[i][0]), mid = from_bf16(parts[i][1]), lo = from_bf16(parts[i][2]);
    const bool same = hi == want[0] && mid == want[1] && lo == want[2];
    if (!same && ++wrong < 5)
      ADD_FAILURE() << values[i] << ": parts " << hi << " " << mid << " " << lo << ", the model's " << want[0] << " "
                    << want[1] << " " << want[2];
    EXPECT_EQ(double(hi) + double(mid) + double(lo), double(values[i])) << values[i];
    EXPECT_EQ(parts[i][0], f32_to_bf16(values[i])) << values[i];  // Eigen's rounding
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(parts[values.size() - 8][0], 0x3f80u);  // the first tie, if the padding left it there
}

TEST_F(Bf16Split, InfinityNanAndTheLargestFloatsKeepTheirMeaning) {
  const float inf = std::numeric_limits<float>::infinity(), big = std::numeric_limits<float>::max();
  std::vector<float> values = {
      inf, -inf, std::numeric_limits<float>::quiet_NaN(), std::bit_cast<float>(0x7f800001u), big, -big, 0.0f, -0.0f};
  const auto parts = device_parts(values);
  EXPECT_EQ(parts[0], (std::array<uint16_t, 3>{0x7f80, 0, 0}));  // inf, and rests of zero rather than inf - inf
  EXPECT_EQ(parts[1], (std::array<uint16_t, 3>{0xff80, 0, 0}));
  for (int i : {2, 3}) {  // NaN stays NaN, a signalling one with its payload in the low bits too
    EXPECT_TRUE(std::isnan(from_bf16(parts[i][0]))) << i;
  }
  for (int i : {4, 5}) {  // truncated, not rounded to infinity: the parts still sum to the value
    EXPECT_TRUE(std::isfinite(from_bf16(parts[i][0]))) << i;
    EXPECT_EQ(double(from_bf16(parts[i][0])) + from_bf16(parts[i][1]) + from_bf16(parts[i][2]), double(values[i]));
  }
  EXPECT_EQ(parts[6], (std::array<uint16_t, 3>{0, 0, 0}));
  EXPECT_EQ(parts[7][0], 0x8000u);
}

TEST_F(Bf16Split, ThePrePassSplitsEveryElementOfBothOperandsOnceInEveryLayout) {
  // bf16x6's pre-pass (rules::Prepass::split_ab) as its plan dispatches it: odd M and N, K off the groups of 8 (the
  // rows padded with zeros), padded leading dimensions, offsets, a batch of two with A shared by both products.
  const KernelFamily& bf16x6 = family_named("bf16x6");
  const Config config{
      {{"bm", 64}, {"bn", 64}, {"bk", 32}, {"sgm", 2}, {"sgn", 2}, {"splits", 1}, {"stages", 1}, {"prepass", 1}}};
  std::mt19937 rng(45);
  std::uniform_real_distribution<float> value(-3.0f, 3.0f);
  for (const bool trans_a : {false, true}) {
    for (const bool trans_b : {false, true}) {
      rules::Operation op = rules::packed(5, 7, 13, trans_a, trans_b, 4, 2);
      // Rows on 16 bytes (the vector loads) in half the cases: lda 16 for A as stored, ldb 16 for B transposed.
      op.lda += 3, op.ldb += 3, op.off_a = trans_b ? 8 : 5, op.off_b = trans_a ? 8 : 9, op.stride_a = 0;
      op.stride_b = (trans_b ? op.n : op.k) * op.ldb;
      const rules::Plan plan = rules::plan(kernel_config(bf16x6, config, DType::f32), op);
      ASSERT_EQ(plan.pass_count, 2u);
      const uint64_t a_len = op.off_a + (trans_a ? op.k : op.m) * op.lda, b_len = op.off_b + 2 * op.stride_b;
      std::vector<float> a(a_len), b(b_len);
      for (float& x : a) x = value(rng);
      for (float& x : b) x = value(rng);
      const std::vector<uint16_t> halves = run_prepass(plan, prepass_spirv(rules::Prepass::split_ab, DType::f32),
                                                       std::as_bytes(std::span(a)), std::as_bytes(std::span(b)));
      const uint64_t k8 = rules::split_k_padded(op.k) / 8;
      int wrong = 0;
      for (uint64_t z = 0; z < 2; ++z) {
        for (uint64_t row = 0; row < op.m + op.n; ++row) {
          for (uint64_t k = 0; k < k8 * 8; ++k) {
            const bool is_b = row >= op.m;
            const uint64_t r = is_b ? row - op.m : row;
            float x = 0.0f;
            if (k < op.k)
              x = is_b ? b[op.off_b + z * op.stride_b + (trans_b ? r * op.ldb + k : k * op.ldb + r)]
                       : a[op.off_a + (trans_a ? k * op.lda + r : r * op.lda + k)];
            const std::vector<float> want = bf16_parts(x, 3);
            for (uint64_t part = 0; part < 3; ++part) {
              // Group g's parts are vectors 3 g .. 3 g + 2 (8 halves each).
              const uint64_t g = (z * (op.m + op.n) + row) * k8 + k / 8;
              const float got = from_bf16(halves[(3 * g + part) * 8 + k % 8]);
              if (got != want[part] && ++wrong < 5)
                ADD_FAILURE() << op.m << "x" << op.n << "x" << op.k << " trans " << trans_a << trans_b << " z " << z
                              << (is_b ? " B" : " A") << " row " << r << " k " << k << " part " << part << ": " << got
                              << ", want " << want[part];
            }
          }
        }
      }
      EXPECT_EQ(wrong, 0) << trans_a << trans_b;
    }
  }
}

}  // namespace gemmtune::test
