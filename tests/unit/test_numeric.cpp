#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "verify/numeric.hpp"

using namespace gemmtune;

namespace {
float from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint16_t compiler_f16(float f) {
  _Float16 h = static_cast<_Float16>(f);  // GCC's conversion rounds to nearest even
  uint16_t u;
  std::memcpy(&u, &h, 2);
  return u;
}
}  // namespace

TEST(Float16, MatchesTheCompilersConversionOnRandomAndSpecialValues) {
  std::mt19937 rng(7);
  std::vector<uint32_t> bits = {0,           0x80000000u, 0x7f800000u, 0xff800000u, 0x477fe000u, 0x477ff000u,
                                0x477fefffu, 0x38800000u, 0x387fffffu, 0x33000000u, 0x33000001u, 0x32ffffffu,
                                0x3f800000u, 0x3f801000u, 0x3f803000u, 0x3f801001u};
  for (int i = 0; i < 2000000; ++i) bits.push_back(rng());
  for (uint32_t b : bits) {
    float f = from_bits(b);
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(f16_to_f32(f32_to_f16(f))));
      continue;
    }
    ASSERT_EQ(f32_to_f16(f), compiler_f16(f)) << std::hex << b;
  }
}

TEST(Float16, EveryHalfRoundTripsExactly) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = f16_to_f32(uint16_t(h));
    if (std::isnan(f)) continue;
    ASSERT_EQ(f32_to_f16(f), h) << std::hex << h;
    _Float16 ref;
    uint16_t hh = uint16_t(h);
    std::memcpy(&ref, &hh, 2);
    ASSERT_EQ(f, static_cast<float>(ref)) << std::hex << h;
  }
}

TEST(BFloat16, RoundsToNearestEvenAndKeepsNaN) {
  EXPECT_EQ(f32_to_bf16(1.0f), 0x3f80);
  EXPECT_EQ(f32_to_bf16(from_bits(0x3f808000u)), 0x3f80);  // tie, even stays
  EXPECT_EQ(f32_to_bf16(from_bits(0x3f818000u)), 0x3f82);  // tie, odd rounds up
  EXPECT_EQ(f32_to_bf16(from_bits(0x3f808001u)), 0x3f81);  // above the tie
  EXPECT_TRUE(std::isnan(bf16_to_f32(f32_to_bf16(std::nanf("")))));
  EXPECT_EQ(bf16_to_f32(f32_to_bf16(-2.5f)), -2.5f);
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float f = bf16_to_f32(uint16_t(h));
    if (!std::isnan(f)) {
      ASSERT_EQ(f32_to_bf16(f), h);
    }
  }
}

TEST(BFloat16, EveryTieBetweenNeighboursRoundsToTheEvenOne) {
  // Each finite bf16 value and the next one up: their midpoint in f32 rounds to the even of the two, anything
  // just below it to the lower, just above to the upper.
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7fffu) >= 0x7f7fu) continue;  // the largest finite value, inf and NaN have no finite neighbour up
    const uint32_t mid = (h << 16) | 0x8000u;
    const uint16_t even = uint16_t((h & 1u) ? h + 1 : h);
    ASSERT_EQ(f32_to_bf16(from_bits(mid)), even) << std::hex << h;
    ASSERT_EQ(f32_to_bf16(from_bits(mid - 1)), h) << std::hex << h;
    ASSERT_EQ(f32_to_bf16(from_bits(mid + 1)), h + 1) << std::hex << h;
  }
}
