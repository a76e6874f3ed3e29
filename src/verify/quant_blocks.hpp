// Block-quantized weights on the host (core/block_format.hpp): encoding a block from its scale and codes, its
// elements exactly, and seeded test rows whose blocks reach every code and a spread of scales.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/block_format.hpp"

namespace gemmtune {

/// One block's contents: the f16 bits of its scale and its 32 codes (each within block_code_min..max).
struct BlockValues {
  uint16_t scale_bits = 0;
  std::array<int32_t, kBlockElements> codes{};
};

/// Writes a block in the format's byte layout (block_bytes(f) bytes at `out`). Codes outside the format's range
/// throw std::invalid_argument.
void encode_block(BlockFormat f, const BlockValues& values, uint8_t* out);
/// Reads a block back from its bytes.
BlockValues decode_block(BlockFormat f, const uint8_t* block);
/// Element e (0..31) of a block: its scale times its code, exact in double.
double block_element(BlockFormat f, const uint8_t* block, uint32_t e);

/// A random block from 64-bit draws (`draw`, called as often as it needs; no standard distribution, so the same
/// draws give the same block everywhere): both extreme codes and, for q4_0, every one of the 16; a normal f16
/// scale of either sign, 2^-10 <= |scale| < 4.
BlockValues random_block(BlockFormat f, const std::function<uint64_t()>& draw);

/// Seeded test weights: `rows` rows of `k` elements (k a multiple of 32), each row's blocks packed, rows
/// `row_bytes` apart (at least block_row_bytes(f, k); the bytes between rows hold `pad`), every block a
/// random_block.
std::vector<uint8_t> make_block_rows(BlockFormat f, uint64_t rows, uint64_t k, uint64_t row_bytes, uint64_t seed,
                                     uint8_t pad = 0xa5);

}  // namespace gemmtune
