#include "verify/operands.hpp"

#include <cstring>

#include "verify/numeric.hpp"

namespace gemmtune {

namespace {
/// splitmix64: tiny, portable and well mixed, so operands do not depend on the standard library's distributions.
struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

float round_to(float v, DType dtype) {
  switch (dtype) {
    case DType::f32: return v;
    case DType::f16: return f16_to_f32(f32_to_f16(v));
    case DType::bf16: return bf16_to_f32(f32_to_bf16(v));
  }
  return v;
}

std::vector<float> random_values(uint64_t count, DType dtype, SplitMix64& rng) {
  std::vector<float> out(count);
  for (float& v : out) {
    do {
      double u = double(rng.next() >> 11) * (1.0 / 9007199254740992.0);  // [0, 1)
      v = round_to(float(2.0 * u - 1.0), dtype);
    } while (v == 0.0f);
  }
  return out;
}
}  // namespace

HostOperands make_operands(const GemmProblem& problem, uint64_t seed) {
  const Shape& s = problem.shape;
  SplitMix64 rng{seed};
  HostOperands ops;
  ops.a = random_values(s.batch * s.m * s.k, problem.dtype, rng);
  ops.b = random_values(s.batch * s.k * s.n, problem.dtype, rng);
  if (problem.beta != 0.0f) ops.c0 = random_values(s.batch * s.m * s.n, DType::f32, rng);
  ops.a_device = encode_for_device(ops.a, problem.dtype);
  ops.b_device = encode_for_device(ops.b, problem.dtype);
  return ops;
}

std::vector<uint8_t> encode_for_device(const std::vector<float>& values, DType dtype) {
  if (dtype == DType::f32) {
    std::vector<uint8_t> out(values.size() * 4);
    std::memcpy(out.data(), values.data(), out.size());
    return out;
  }
  std::vector<uint16_t> halves((values.size() + 1) / 2 * 2, 0);
  for (size_t i = 0; i < values.size(); ++i) halves[i] = dtype == DType::f16 ? f32_to_f16(values[i]) : f32_to_bf16(values[i]);
  std::vector<uint8_t> out(halves.size() * 2);
  std::memcpy(out.data(), halves.data(), out.size());  // little-endian host: element 2i is the low half of word i
  return out;
}

}  // namespace gemmtune
