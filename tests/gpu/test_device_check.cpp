// Screening's device check (run/device_check.hpp): the figures it returns are the host check's, a wrong element, a
// NaN or a stray write outside the region is refused, and through the runner every config it passes the host passes.
#include <cmath>
#include <cstring>

#include "gpu/lavapipe_env.hpp"
#include "kernels/registry.hpp"
#include "run/device_check.hpp"
#include "run/gemm_runner.hpp"
#include "tuner/space.hpp"
#include "verify/metric.hpp"
#include "verify/reference.hpp"

namespace gemmtune::test {

namespace {

/// A problem with ld padding, offsets and a batch, so C's buffer has elements outside the written region.
GemmProblem padded_problem(DType dtype) {
  GemmProblem p{{19, 23, 40, 2}, dtype, 1.0f, 0.0f};
  p.c.ld = 29;
  p.c.offset = 5;
  return p;
}

/// Runs the device check on C's buffer holding `image` (a whole buffer, as the host check reads one back).
DeviceVerdict check_image(const GemmProblem& p, const HostOperands& ops, const std::vector<double>& ref,
                          const std::vector<float>& image) {
  vk::Submitter submitter(device(), 10'000'000'000ull);
  vk::Buffer c(device(), image.size() * 4, vk::kStorageBufferUsage, false);
  vk::Buffer staging(device(), image.size() * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
  std::memcpy(staging.mapped(), image.data(), image.size() * 4);
  int before_uploads = 0;  // the hook where a caller keeping the clocks up lets go of the queue: once
  DeviceCheck check(device(), submitter, p, ops, ref, c, [&] { ++before_uploads; });
  EXPECT_EQ(before_uploads, 1);
  submitter.run([&](VkCommandBuffer cmd) {
    check.record_reset(cmd);  // C's fresh image, then what a kernel "wrote"
    const VkBufferCopy region{0, 0, image.size() * 4};
    vkCmdCopyBuffer(cmd, staging.handle(), c.handle(), 1, &region);
    check.record_check(cmd);
  });
  return check.verdict(dtype_error_bound(p.dtype));
}

/// C's buffer as a correct run leaves it: the reference rounded to f32 (int32 bits for integers) in the region.
std::vector<float> correct_image(const GemmProblem& p, const HostOperands& ops, const std::vector<double>& ref) {
  std::vector<float> image = ops.c0;
  const Shape& s = p.shape;
  for (uint64_t z = 0; z < s.batch; ++z)
    for (uint64_t i = 0; i < s.m; ++i)
      for (uint64_t j = 0; j < s.n; ++j) {
        const double r = ref[(z * s.m + i) * s.n + j];
        float& out = image[ops.layout.c.index(z, i, j)];
        if (is_integer(p.dtype)) {
          const int32_t v = int32_t(r);
          std::memcpy(&out, &v, 4);
        } else {
          out = float(r);
        }
      }
  return image;
}
}  // namespace

class DeviceCheckTest : public GpuTest {};

TEST_F(DeviceCheckTest, GivesTheHostChecksFiguresAndRefusesWrongValuesNaNsAndStrayWrites) {
  for (DType dtype : {DType::f32, DType::f16, DType::i8}) {
    const GemmProblem p = padded_problem(dtype);
    const HostOperands ops = make_operands(p, 7, 64);
    const std::vector<double> ref = reference_gemm(p, ops);
    const std::vector<float> good = correct_image(p, ops, ref);
    auto host = [&](const std::vector<float>& image) {
      const GatheredResult g = gather_result(p, ops, image);
      return std::make_pair(is_integer(dtype) ? compare_exact_int32(g.values, ref)
                                              : compare_with_reference(g.values, ref, dtype_error_bound(dtype)),
                            g);
    };
    const DeviceVerdict ok = check_image(p, ops, ref, good);
    EXPECT_TRUE(ok.passed()) << dtype_name(dtype) << " error " << ok.error.error;
    EXPECT_EQ(ok.touched, 0u);

    // One element off: refused with the host's normwise and elementwise figures.
    const uint64_t wrong_at = ops.layout.c.index(1, 7, 11);
    std::vector<float> wrong = good;
    if (is_integer(dtype)) {
      int32_t v;
      std::memcpy(&v, &wrong[wrong_at], 4);
      v += 3;
      std::memcpy(&wrong[wrong_at], &v, 4);
    } else {
      wrong[wrong_at] += 0.25f;
    }
    const DeviceVerdict off = check_image(p, ops, ref, wrong);
    const auto [host_off, gathered_off] = host(wrong);
    EXPECT_FALSE(off.passed()) << dtype_name(dtype);
    EXPECT_FALSE(host_off.passed);
    EXPECT_NEAR(off.error.error, host_off.error, 1e-6 * host_off.error) << dtype_name(dtype);
    EXPECT_NEAR(off.error.elementwise_rel, host_off.elementwise_rel, 1e-5 * host_off.elementwise_rel);

    if (!is_integer(dtype)) {
      std::vector<float> nan = good;
      nan[wrong_at] = std::nanf("");
      const DeviceVerdict v = check_image(p, ops, ref, nan);
      EXPECT_EQ(v.error.non_finite, 1u);
      EXPECT_TRUE(std::isinf(v.error.error));
      EXPECT_FALSE(v.passed());
    }

    // A write into ld padding (row 3's column N) and one into the leading guard band: touched, first at the lowest.
    std::vector<float> stray = good;
    const uint64_t padding = ops.layout.c.index(0, 3, p.shape.n), guard = 2;
    stray[padding] = 1.0f;
    stray[guard] = 0.0f;
    const DeviceVerdict v = check_image(p, ops, ref, stray);
    EXPECT_EQ(v.touched, 2u) << dtype_name(dtype);
    EXPECT_EQ(v.first_touched, guard);
    EXPECT_FALSE(v.passed());
    EXPECT_EQ(host(stray).second.touched, 2u);
  }
}

TEST_F(DeviceCheckTest, AnIntegerSumOfMinusOneIsARegionElementNotTheOutsideMark) {
  // Every sum -1 (A all 1, B all -1, K = 1): the region's expected words are 0xffffffff, the bits of the mark a
  // check could take for "outside the region".
  GemmProblem p{{5, 7, 1, 1}, DType::i8, 1.0f, 0.0f};
  p.c.ld = 9;
  const HostOperands ops = make_operands(p, 7, 64, OperandFill{1.0f, -1.0f});
  const std::vector<double> ref = reference_gemm(p, ops);
  ASSERT_EQ(ref.front(), -1.0);
  const DeviceVerdict v = check_image(p, ops, ref, correct_image(p, ops, ref));
  EXPECT_TRUE(v.passed()) << v.touched << " touched, " << v.error.error;
}

TEST_F(DeviceCheckTest, ScreeningChecksOnTheDeviceAndAgreesWithTheHostOnEveryConfigItPasses) {
  for (DType dtype : {DType::f32, DType::bf16, DType::u8i8}) {
    GemmProblem p{{37, 45, 70, 1}, dtype, 1.0f, 0.0f, Layout{true, false}};
    GemmRunner runner(device(), p, RunOptions{});
    SearchSpace space = build_search_space(kernel_families(), p, device().info());
    size_t checked = 0;
    for (size_t i = 0; i < space.candidates.size() && checked < 4; i += 97) {
      const Candidate& c = space.candidates[i];
      const Measurement screened = runner.verify_as_screened(*c.family, c.config);
      const Measurement host = runner.verify(*c.family, c.config);
      ASSERT_EQ(screened.disposition, host.disposition) << c.name << ": " << screened.detail;
      if (screened.disposition != Disposition::passed) continue;
      EXPECT_TRUE(screened.device_checked) << c.name;
      EXPECT_FALSE(host.device_checked) << c.name;
      EXPECT_NEAR(screened.error.error, host.error.error, 1e-6 * host.error.error + 1e-12) << c.name;
      ++checked;
    }
    EXPECT_GT(checked, 0u) << dtype_name(dtype);
    // With the device check off, or an epilogue the host must check element by element, screening checks on the host.
    RunOptions host_only;
    host_only.device_check = false;
    GemmRunner off(device(), p, host_only);
    const Candidate& c = space.candidates.front();
    EXPECT_FALSE(off.verify_as_screened(*c.family, c.config).device_checked);
    if (is_integer(dtype)) continue;  // no epilogue on integer sums
    GemmProblem with_bias = p;
    with_bias.epilogue.bias = true;
    GemmRunner bias(device(), with_bias, RunOptions{});
    EXPECT_FALSE(bias.verify_as_screened(*c.family, c.config).device_checked);
  }
}

}  // namespace gemmtune::test
