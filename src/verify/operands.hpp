// Seeded input operands as whole buffer images (values rounded to the input type, padding and guard bands
// filled), their device encoding, and the image of C before a run.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/problem.hpp"

namespace gemmtune {

/// Bits that fill C outside the region a product writes (ld padding, guard bands): a signalling-NaN pattern no
/// kernel computes, so any stray write shows.
inline constexpr uint32_t kUntouchedBits = 0x7fa5a5a5u;

struct HostOperands {
  ResolvedGemm layout;      ///< where the operands lie (offsets include the leading guard band)
  std::vector<float> a, b;  ///< whole buffers; elements outside the operands are NaN, so a stray read shows
  std::vector<float> c0;    ///< whole C before a run: the region holds the initial C (beta != 0) or NaN
                            ///< (beta = 0, C must not be read); the rest holds kUntouchedBits
  std::vector<float> bias;  ///< whole bias buffer (empty without bias); padding NaN
  /// Device encoding of a and b (a quantized B: its blocks; a and b hold their exact values).
  std::vector<uint8_t> a_device, b_device;
};

/// Bytes of an integer operand's buffer outside the operand (guard bands, ld padding): a value a stray read
/// turns into a wrong sum.
inline constexpr uint8_t kUnreadByte = 0xa5;

/// Every element of A (B) set to one value instead of random ones (tests of the integer extremes), or f32 operands
/// of wide range (issue 44's accuracy set for f32 on the matrix units): each element sign x [1, 2) x 2^e with e a
/// whole number uniform in -30..30, so every row of op(A) and column of op(B) spans 2^-30..2^31, and in each pair of
/// k (2t, 2t + 1) op(A)'s two elements are equal and op(B)'s opposite to within 2^-10, so every other term of a dot
/// product cancels its neighbour.
struct OperandFill {
  std::optional<float> a, b;
  bool wide = false;
};

/// `guard` elements precede and follow every buffer. Values are uniform in [-1, 1], rounded to the input type,
/// never zero; with alpha = 0, A and B hold NaN everywhere (they must not be read). The same seed gives the
/// same operands on every platform. Integer types get uniform integers of their range (zeros included).
HostOperands make_operands(const GemmProblem& problem, uint64_t seed, uint64_t guard, const OperandFill& fill = {});

/// Encodes host values in the device format of `dtype` (f32 words, 16-bit values packed in pairs, low half
/// first, or 8-bit integers four to a word, lowest byte first; padded to whole 32-bit words).
std::vector<uint8_t> encode_for_device(const std::vector<float>& values, DType dtype);

/// The problem with every offset moved past a leading guard band of `guard` elements.
GemmProblem with_guard(const GemmProblem& problem, uint64_t guard);

}  // namespace gemmtune
