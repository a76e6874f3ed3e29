// One Vulkan instance and device for the GPU tests (lavapipe on machines without a GPU), with the validation
// layer on: GpuTest fails any test during which the layer reported an error.
#pragma once

#include <gtest/gtest.h>

#include <ostream>

#include "core/problem.hpp"
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
