// ggml's q8_0 and q4_0 blocks on the host: the byte layout, exact elements, and test rows that reach every code.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "verify/numeric.hpp"
#include "verify/quant_blocks.hpp"

using namespace gemmtune;

TEST(QuantBlocks, Q8ZeroIsAnF16ScaleThenThirtyTwoSignedBytes) {
  BlockValues v;
  v.scale_bits = 0x3c01;                                                            // 1 + 2^-10
  for (uint32_t e = 0; e < kBlockElements; ++e) v.codes[e] = int32_t(e) * 8 - 128;  // -128 .. 120
  v.codes[31] = 127;
  uint8_t block[34];
  encode_block(BlockFormat::q8_0, v, block);
  EXPECT_EQ(block[0], 0x01);
  EXPECT_EQ(block[1], 0x3c);
  EXPECT_EQ(block[2], 0x80);   // -128
  EXPECT_EQ(block[18], 0x00);  // element 16: 0
  EXPECT_EQ(block[33], 0x7f);  // 127
  EXPECT_EQ(block_element(BlockFormat::q8_0, block, 0), -128.0 * (1.0 + std::ldexp(1.0, -10)));
  EXPECT_EQ(block_element(BlockFormat::q8_0, block, 31), 127.0 * (1.0 + std::ldexp(1.0, -10)));
}

TEST(QuantBlocks, Q4ZeroHoldsElementJLowAndElementJPlus16HighOffsetBy8) {
  BlockValues v;
  v.scale_bits = 0xb800;  // -0.5
  for (uint32_t e = 0; e < kBlockElements; ++e) v.codes[e] = int32_t(e % 16) - 8;
  v.codes[0] = -8, v.codes[16] = 7;
  uint8_t block[18];
  encode_block(BlockFormat::q4_0, v, block);
  EXPECT_EQ(block[0], 0x00);
  EXPECT_EQ(block[1], 0xb8);
  EXPECT_EQ(block[2], 0xf0);  // element 0: nibble 0 (-8) low; element 16: nibble 15 (7) high
  EXPECT_EQ(block[3], 0x11);  // elements 1 and 17: code -7 each
  EXPECT_EQ(block_element(BlockFormat::q4_0, block, 0), 4.0);
  EXPECT_EQ(block_element(BlockFormat::q4_0, block, 16), -3.5);
  EXPECT_EQ(block_element(BlockFormat::q4_0, block, 17), 3.5);
  v.codes[5] = 8;
  EXPECT_THROW(encode_block(BlockFormat::q4_0, v, block), std::invalid_argument);
}

TEST(QuantBlocks, TestRowsReachEveryCodeBothSignsOfScaleAndKeepTheirPadding) {
  for (BlockFormat f : {BlockFormat::q8_0, BlockFormat::q4_0}) {
    const uint64_t rows = 7, k = 96, row_bytes = block_row_bytes(f, k) + 6;
    const std::vector<uint8_t> data = make_block_rows(f, rows, k, row_bytes, 11);
    ASSERT_EQ(data.size(), rows * row_bytes);
    bool negative = false, positive = false;
    std::set<int32_t> seen;
    for (uint64_t r = 0; r < rows; ++r) {
      for (uint64_t b = 0; b < k / kBlockElements; ++b) {
        const BlockValues v = decode_block(f, &data[r * row_bytes + b * block_bytes(f)]);
        const float scale = f16_to_f32(v.scale_bits);
        ASSERT_TRUE(std::isnormal(scale));
        EXPECT_GE(std::fabs(scale), std::ldexp(1.0f, -10));
        EXPECT_LT(std::fabs(scale), 4.0f);
        (scale < 0 ? negative : positive) = true;
        const std::set<int32_t> codes(v.codes.begin(), v.codes.end());
        EXPECT_TRUE(codes.count(block_code_min(f)) && codes.count(block_code_max(f)));
        if (f == BlockFormat::q4_0) {
          EXPECT_EQ(codes.size(), 16u);
        }
        seen.insert(codes.begin(), codes.end());
      }
      for (uint64_t i = block_row_bytes(f, k); i < row_bytes; ++i) EXPECT_EQ(data[r * row_bytes + i], 0xa5);
    }
    EXPECT_TRUE(negative && positive);
    EXPECT_GT(seen.size(), f == BlockFormat::q8_0 ? 200u : 15u);
    EXPECT_EQ(make_block_rows(f, rows, k, row_bytes, 11), data);
    EXPECT_NE(make_block_rows(f, rows, k, row_bytes, 12), data);
  }
  EXPECT_THROW(make_block_rows(BlockFormat::q4_0, 1, 40, 100, 1), std::invalid_argument);
}
