#include "verify/numeric.hpp"

#include <Eigen/Core>

namespace gemmtune {

// Eigen's half and bfloat16 round to nearest even and keep a NaN a NaN (tests/unit/test_numeric.cpp holds them to
// the compiler's _Float16 and to the ties of every 16-bit value).
uint16_t f32_to_f16(float value) { return Eigen::numext::bit_cast<uint16_t>(Eigen::half(value)); }

float f16_to_f32(uint16_t bits) { return float(Eigen::numext::bit_cast<Eigen::half>(bits)); }

uint16_t f32_to_bf16(float value) { return Eigen::numext::bit_cast<uint16_t>(Eigen::bfloat16(value)); }

float bf16_to_f32(uint16_t bits) { return float(Eigen::numext::bit_cast<Eigen::bfloat16>(bits)); }

}  // namespace gemmtune
