// One Vulkan instance and device for the GPU tests (lavapipe on machines without a GPU), with the validation
// layer on: GpuTest fails any test during which the layer reported an error.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "core/dispatch_rules.hpp"
#include "core/problem.hpp"
#include "tuner/space.hpp"
#include "vk/device.hpp"
#include "vk/instance.hpp"

namespace gemmtune {
// Readable test names in ctest (gtest prints parameters with these).
inline void PrintTo(DType d, std::ostream* os) { *os << dtype_name(d); }
inline void PrintTo(const Layout& l, std::ostream* os) { *os << l.name(); }
}  // namespace gemmtune

namespace gemmtune::test {

vk::Instance& instance();
vk::Device& device();

/// The first pass of `plan` (a pre-pass) run alone with `module`, A's and B's bytes uploaded to bindings 0 and 1, and
/// the scratch it writes read back as 16-bit values (filled with 0xAB first, so what it leaves unwritten shows).
std::vector<uint16_t> run_prepass(const rules::Plan& plan, std::span<const uint32_t> module,
                                  std::span<const std::byte> a, std::span<const std::byte> b);

/// The candidates of `family`'s search space for `problem` on the test device whose parameter `param` is `value`.
std::vector<Candidate> candidates_with(const KernelFamily& family, const GemmProblem& problem, const std::string& param,
                                       uint32_t value);

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override { errors_before_ = instance().validation_errors(); }
  void TearDown() override {
    EXPECT_EQ(instance().validation_errors(), errors_before_)
        << "the validation layer reported errors during this test";
  }

 private:
  uint64_t errors_before_ = 0;
};

}  // namespace gemmtune::test
