#include "verify/numeric.hpp"

#include <cstring>

namespace gemmtune {

namespace {
uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float float_of(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
}  // namespace

uint16_t f32_to_f16(float value) {
  const uint32_t x = bits_of(value);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) return uint16_t(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));  // inf / NaN
  if (abs >= 0x477ff000u) return uint16_t(sign | 0x7c00u);  // rounds past 65504: inf
  if (abs < 0x38800000u) {
    // Subnormal or zero in f16: value = mantissa * 2^-24, round to nearest even.
    if (abs < 0x33000000u) return uint16_t(sign);  // below half of the smallest subnormal
    const uint32_t exponent = abs >> 23;
    const uint32_t mantissa = (abs & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126u - exponent;  // so that result = mantissa >> shift
    uint32_t result = mantissa >> shift;
    const uint32_t rest = mantissa & ((1u << shift) - 1u);
    const uint32_t half = 1u << (shift - 1u);
    if (rest > half || (rest == half && (result & 1u))) ++result;
    return uint16_t(sign | result);
  }
  // Normal: rebias the exponent (127 -> 15) and round the 13 dropped mantissa bits to nearest even.
  uint32_t result = ((abs - 0x38000000u) >> 13);
  const uint32_t rest = abs & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (result & 1u))) ++result;  // a carry into the exponent is correct
  return uint16_t(sign | result);
}

float f16_to_f32(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0x1fu) return float_of(sign | 0x7f800000u | (mantissa << 13));
  if (exponent != 0) return float_of(sign | ((exponent + 112u) << 23) | (mantissa << 13));
  if (mantissa == 0) return float_of(sign);
  // Subnormal: normalise.
  int e = -1;
  do {
    ++e;
    mantissa <<= 1;
  } while (!(mantissa & 0x400u));
  return float_of(sign | ((112u - uint32_t(e)) << 23) | ((mantissa & 0x3ffu) << 13));
}

uint16_t f32_to_bf16(float value) {
  const uint32_t x = bits_of(value);
  if ((x & 0x7fffffffu) > 0x7f800000u) return uint16_t((x >> 16) | 0x40u);  // keep NaN a NaN
  const uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);
  return uint16_t((x + rounding) >> 16);
}

float bf16_to_f32(uint16_t bits) { return float_of(uint32_t(bits) << 16); }

}  // namespace gemmtune
