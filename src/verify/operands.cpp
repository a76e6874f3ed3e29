#include "verify/operands.hpp"

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <stdexcept>

#include "verify/numeric.hpp"
#include "verify/parallel_rows.hpp"
#include "verify/quant_blocks.hpp"

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
  /// A uniform 8-bit integer of A's (is_a) or B's type.
  float uniform_integer(DType dtype, bool is_a) {
    const int v = int(next() >> 56);  // 0..255
    return float((is_a ? a_signed(dtype) : b_signed(dtype)) ? v - 128 : v);
  }
  double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }  // [0, 1)
  float uniform_nonzero(DType dtype) {
    float v;
    do {
      v = float(2.0 * uniform() - 1.0);
      if (a_dtype(dtype) == DType::f16) v = f16_to_f32(f32_to_f16(v));
      if (dtype == DType::bf16) v = bf16_to_f32(f32_to_bf16(v));
    } while (v == 0.0f);
    return v;
  }
};

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

/// Fills every element (z, r, c) of an operand; shared operands (stride 0) are filled once.
template <typename Fn>
void for_each_element(const ResolvedOperand& op, uint64_t batch, Fn&& fn) {
  const uint64_t products = op.stride == 0 ? 1 : batch;
  for (uint64_t z = 0; z < products; ++z)
    for (uint64_t r = 0; r < op.rows; ++r)
      for (uint64_t c = 0; c < op.cols; ++c) fn(op.index(z, r, c));
}

/// Fills every element of an operand from value(rng), each row (z, r) from its own stream of `seed`, the rows on
/// several threads: the same operands whatever the core count, and a 2048x14336x4096 problem's 67 M elements not
/// drawn one at a time. `tag` keeps A's streams apart from B's.
template <typename Value>
void fill_by_rows(const ResolvedOperand& op, uint64_t batch, uint64_t seed, uint64_t tag, std::vector<float>& host,
                  Value&& value) {
  const uint64_t products = op.stride == 0 ? 1 : batch;
  parallel_chunks(products * op.rows, 64, [&](uint64_t begin, uint64_t end) {
    for (uint64_t row = begin; row < end; ++row) {
      SplitMix64 rng{SplitMix64{seed ^ (tag << 62)}.next() + row * 0xd1b54a32d192ed03ull};
      const uint64_t z = row / op.rows, r = row % op.rows;
      for (uint64_t c = 0; c < op.cols; ++c) host[op.index(z, r, c)] = value(rng);
    }
  });
}

/// A quantized B (stored N x K in whole blocks along k): random blocks into the device image, their exact values
/// into the host's; bytes outside the operand hold kUnreadByte.
void fill_blocks(const ResolvedOperand& op, uint64_t batch, BlockFormat f, SplitMix64& rng, std::vector<float>& host,
                 std::vector<uint8_t>& device) {
  const std::function<uint64_t()> draw = [&rng] { return rng.next(); };
  const uint64_t products = op.stride == 0 ? 1 : batch;
  for (uint64_t z = 0; z < products; ++z) {
    for (uint64_t r = 0; r < op.rows; ++r) {
      for (uint64_t c = 0; c < op.cols; c += kBlockElements) {
        const uint64_t first = op.index(z, r, c);
        uint8_t* block = &device[first / kBlockElements * block_bytes(f)];
        encode_block(f, random_block(f, draw), block);
        // Decoded once a block (a decode per element made a large B's operands take seconds).
        const BlockValues v = decode_block(f, block);
        const double scale = double(f16_to_f32(v.scale_bits));
        for (uint32_t e = 0; e < kBlockElements; ++e) host[first + e] = float(scale * double(v.codes[e]));
      }
    }
  }
}

/// OperandFill::wide: op(A) and op(B) of an f32 problem, element by element in op's coordinates.
void fill_wide(const GemmProblem& problem, const ResolvedGemm& l, SplitMix64& rng, std::vector<float>& a,
               std::vector<float>& b) {
  auto value = [&rng] {
    const double sign = rng.next() >> 63 ? -1.0 : 1.0;
    const int exponent = int(std::floor(rng.uniform() * 61.0)) - 30;  // -30..30
    return float(std::ldexp(sign * (1.0 + rng.uniform()), exponent));
  };
  const Shape& s = problem.shape;
  const bool ta = problem.layout.trans_a, tb = problem.layout.trans_b;
  auto a_at = [&](uint64_t z, uint64_t i, uint64_t t) -> float& {
    return a[ta ? l.a.index(z, t, i) : l.a.index(z, i, t)];
  };
  auto b_at = [&](uint64_t z, uint64_t t, uint64_t j) -> float& {
    return b[tb ? l.b.index(z, j, t) : l.b.index(z, t, j)];
  };
  for (uint64_t z = 0; z < (l.a.stride == 0 ? 1 : s.batch); ++z) {
    for (uint64_t i = 0; i < s.m; ++i) {
      for (uint64_t t = 0; t < s.k; ++t) a_at(z, i, t) = t % 2 == 1 ? a_at(z, i, t - 1) : value();
    }
  }
  for (uint64_t z = 0; z < (l.b.stride == 0 ? 1 : s.batch); ++z) {
    for (uint64_t t = 0; t < s.k; ++t) {
      for (uint64_t j = 0; j < s.n; ++j) {
        const double nudge = t % 2 == 1 ? std::ldexp(2.0 * rng.uniform() - 1.0, -10) : 0.0;
        b_at(z, t, j) = t % 2 == 1 ? float(-double(b_at(z, t - 1, j)) * (1.0 + nudge)) : value();
      }
    }
  }
}

float from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
}  // namespace

GemmProblem with_guard(const GemmProblem& problem, uint64_t guard) {
  GemmProblem p = problem;
  p.a.offset += guard;
  p.b.offset += guard;
  p.c.offset += guard;
  p.epilogue.bias_offset += guard;
  return p;
}

HostOperands make_operands(const GemmProblem& problem, uint64_t seed, uint64_t guard, const OperandFill& fill) {
  HostOperands ops;
  ops.layout = resolve(with_guard(problem, guard));
  const ResolvedGemm& l = ops.layout;
  const uint64_t batch = problem.shape.batch;
  SplitMix64 rng{seed};
  const bool read_ab = problem.alpha != 0.0f;

  const bool integer = is_integer(problem.dtype);
  auto value = [&](SplitMix64& stream, bool is_a) {
    return integer ? stream.uniform_integer(problem.dtype, is_a) : stream.uniform_nonzero(problem.dtype);
  };
  ops.a.assign(l.a.extent + guard, kNaN);
  ops.b.assign(l.b.extent + guard, kNaN);
  const std::optional<BlockFormat> blocks = b_block_format(problem.dtype);
  if (fill.wide) {
    if (problem.dtype != DType::f32) throw std::invalid_argument("wide-range operands are f32's");
    if (read_ab) fill_wide(problem, l, rng, ops.a, ops.b);
  } else if (read_ab) {
    fill_by_rows(l.a, batch, seed, 1, ops.a,
                 [&](SplitMix64& stream) { return fill.a ? *fill.a : value(stream, true); });
    if (!blocks)
      fill_by_rows(l.b, batch, seed, 2, ops.b,
                   [&](SplitMix64& stream) { return fill.b ? *fill.b : value(stream, false); });
  }
  if (blocks) {
    if (fill.b) throw std::invalid_argument("a constant B fill has no block encoding");
    ops.b_device.assign(operand_bytes(problem.dtype, true, l.b.extent + guard), kUnreadByte);
    if (read_ab) fill_blocks(l.b, batch, *blocks, rng, ops.b, ops.b_device);
  }
  ops.c0.assign(l.c.extent + guard, from_bits(kUntouchedBits));
  for_each_element(l.c, batch,
                   [&](uint64_t i) { ops.c0[i] = problem.beta != 0.0f ? rng.uniform_nonzero(DType::f32) : kNaN; });
  if (problem.epilogue.bias) {
    ops.bias.assign(l.bias_extent + guard, kNaN);
    for (uint64_t j = 0; j < problem.shape.n; ++j)
      ops.bias[problem.epilogue.bias_offset + guard + j] = rng.uniform_nonzero(DType::f32);
  }
  ops.a_device = encode_for_device(ops.a, a_dtype(problem.dtype));
  if (!blocks) ops.b_device = encode_for_device(ops.b, problem.dtype);
  return ops;
}

std::vector<uint8_t> encode_for_device(const std::vector<float>& values, DType dtype) {
  if (is_integer(dtype)) {
    // One byte per element, padded to whole 32-bit words; a NaN (no operand element) becomes kUnreadByte.
    std::vector<uint8_t> out((values.size() + 3) / 4 * 4, kUnreadByte);
    for (size_t i = 0; i < values.size(); ++i) {
      if (!std::isnan(values[i])) out[i] = uint8_t(int32_t(values[i]) & 0xff);
    }
    return out;
  }
  if (dtype == DType::f32) {
    std::vector<uint8_t> out(values.size() * 4);
    std::memcpy(out.data(), values.data(), out.size());
    return out;
  }
  std::vector<uint16_t> halves((values.size() + 1) / 2 * 2, 0);
  for (size_t i = 0; i < values.size(); ++i)
    halves[i] = dtype == DType::f16 ? f32_to_f16(values[i]) : f32_to_bf16(values[i]);
  std::vector<uint8_t> out(halves.size() * 2);
  std::memcpy(out.data(), halves.data(), out.size());  // little-endian host: element 2i is the low half of word i
  return out;
}

}  // namespace gemmtune
