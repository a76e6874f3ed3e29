#include "verify/quant_blocks.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

#include "verify/numeric.hpp"

namespace gemmtune {

void encode_block(BlockFormat f, const BlockValues& values, uint8_t* out) {
  for (int32_t code : values.codes) {
    if (code < block_code_min(f) || code > block_code_max(f))
      throw std::invalid_argument(std::string(block_format_name(f)) + ": code " + std::to_string(code) +
                                  " outside its range");
  }
  out[0] = uint8_t(values.scale_bits & 0xff);  // little-endian, as ggml's f16 field
  out[1] = uint8_t(values.scale_bits >> 8);
  if (f == BlockFormat::q8_0) {
    for (uint32_t e = 0; e < kBlockElements; ++e) out[2 + e] = uint8_t(int8_t(values.codes[e]));
    return;
  }
  for (uint32_t j = 0; j < kBlockElements / 2; ++j)
    out[2 + j] = uint8_t((values.codes[j] + 8) | ((values.codes[j + 16] + 8) << 4));
}

BlockValues decode_block(BlockFormat f, const uint8_t* block) {
  BlockValues v;
  v.scale_bits = uint16_t(block[0] | (block[1] << 8));
  for (uint32_t e = 0; e < kBlockElements; ++e) {
    if (f == BlockFormat::q8_0) {
      v.codes[e] = int8_t(block[2 + e]);
    } else {
      const uint8_t byte = block[2 + e % 16];
      v.codes[e] = int32_t(e < 16 ? byte & 0xf : byte >> 4) - 8;
    }
  }
  return v;
}

double block_element(BlockFormat f, const uint8_t* block, uint32_t e) {
  const BlockValues v = decode_block(f, block);
  return double(f16_to_f32(v.scale_bits)) * double(v.codes[e]);
}

BlockValues random_block(BlockFormat f, const std::function<uint64_t()>& draw) {
  BlockValues v;
  // A 10-bit mantissa: exact in f16.
  const float magnitude = std::ldexp(1.0f + float(draw() >> 54) * 0x1p-10f, int(draw() % 12) - 10);
  v.scale_bits = f32_to_f16(draw() & 1 ? -magnitude : magnitude);
  const int32_t low = block_code_min(f), span = block_code_max(f) - low + 1;
  if (f == BlockFormat::q4_0) {
    for (uint32_t e = 0; e < kBlockElements; ++e) v.codes[e] = low + int32_t(e % 16);  // every code twice
  } else {
    for (uint32_t e = 0; e < kBlockElements; ++e) v.codes[e] = low + int32_t(draw() % uint64_t(span));
    v.codes[0] = block_code_min(f), v.codes[1] = block_code_max(f);  // both extremes, shuffled below
  }
  for (uint32_t e = kBlockElements - 1; e > 0; --e) std::swap(v.codes[e], v.codes[draw() % (e + 1)]);
  return v;
}

std::vector<uint8_t> make_block_rows(BlockFormat f, uint64_t rows, uint64_t k, uint64_t row_bytes, uint64_t seed,
                                     uint8_t pad) {
  if (k % kBlockElements != 0) throw std::invalid_argument("k is not a multiple of 32");
  if (row_bytes < block_row_bytes(f, k)) throw std::invalid_argument("rows overlap");
  std::vector<uint8_t> out(rows * row_bytes, pad);
  std::mt19937_64 rng(seed);
  const std::function<uint64_t()> draw = [&rng] { return rng(); };
  for (uint64_t r = 0; r < rows; ++r) {
    for (uint64_t b = 0; b < k / kBlockElements; ++b)
      encode_block(f, random_block(f, draw), &out[r * row_bytes + b * block_bytes(f)]);
  }
  return out;
}

}  // namespace gemmtune
