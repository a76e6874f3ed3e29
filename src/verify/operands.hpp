// Seeded input operands: values on the host (already rounded to the input type) and their device encoding.
#pragma once

#include <cstdint>
#include <vector>

#include "core/problem.hpp"

namespace gemmtune {

struct HostOperands {
  std::vector<float> a, b;  ///< batch * M * K and batch * K * N values, exactly representable in the dtype
  std::vector<float> c0;    ///< batch * M * N initial C, used when beta != 0
  std::vector<uint8_t> a_device, b_device;  ///< the device encoding: f32, or packed 16-bit pairs
};

/// Uniform random values in [-1, 1], rounded to the input type, never zero (zeros hide unwritten outputs and
/// wrong indexing). The same seed gives the same operands on every platform.
HostOperands make_operands(const GemmProblem& problem, uint64_t seed);

/// Encodes host values in the device format of `dtype` (f32 words, or 16-bit values packed in pairs,
/// low half first, padded to whole 32-bit words).
std::vector<uint8_t> encode_for_device(const std::vector<float>& values, DType dtype);

}  // namespace gemmtune
