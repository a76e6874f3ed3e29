// ggml's block-quantized weight formats as gemmtune stores B: runs of 32 elements, each block an f16 scale then its
// codes. q8_0: 34 bytes, 32 signed bytes. q4_0: 18 bytes, 16 bytes of nibbles (byte j holds element j in its low
// nibble and element j + 16 in its high one), each nibble offset by 8. An element is scale x code, exactly.
#pragma once

#include <cstdint>
#include <string_view>

namespace gemmtune {

enum class BlockFormat { q8_0, q4_0 };

inline constexpr uint32_t kBlockElements = 32;

constexpr uint32_t block_bytes(BlockFormat f) { return f == BlockFormat::q8_0 ? 34 : 18; }
constexpr std::string_view block_format_name(BlockFormat f) { return f == BlockFormat::q8_0 ? "q8_0" : "q4_0"; }
/// The codes a block holds, as the element's multiplier of the scale: q8_0 -128..127, q4_0 -8..7.
constexpr int32_t block_code_min(BlockFormat f) { return f == BlockFormat::q8_0 ? -128 : -8; }
constexpr int32_t block_code_max(BlockFormat f) { return f == BlockFormat::q8_0 ? 127 : 7; }
/// Bytes of a row of `k` elements (k a multiple of kBlockElements).
constexpr uint64_t block_row_bytes(BlockFormat f, uint64_t k) { return k / kBlockElements * block_bytes(f); }

}  // namespace gemmtune
