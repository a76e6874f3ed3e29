// 16-bit float formats on the host: round-to-nearest-even conversions from f32, exact conversions back.
#pragma once

#include <cstdint>

namespace gemmtune {

uint16_t f32_to_f16(float value);
float f16_to_f32(uint16_t bits);
uint16_t f32_to_bf16(float value);
float bf16_to_f32(uint16_t bits);

}  // namespace gemmtune
