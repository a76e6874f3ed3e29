// qrowmma's decoding (kernels/common/quant_halves.glsl), run on lavapipe, which has f16 arithmetic but no cooperative
// matrices to run the kernel itself: for blocks that reach every code and a spread of scales of either sign, each
// lane's 8 halves are scale x code rounded once to f16, in the order and at the k the kernel's fragments assume. What
// the rounding left (a fused f16 fma, which lavapipe's f16 arithmetic does not fuse) is checked on devices with the
// matrix units, through test_quantized.cpp's single cancelling sums (1 x 1 x 32).
#include <cstring>
#include <random>

#include "gpu/lavapipe_env.hpp"
#include "kernels/spirv.hpp"
#include "verify/numeric.hpp"
#include "verify/quant_blocks.hpp"
#include "vk/resources.hpp"

namespace gemmtune::test {

namespace {
constexpr uint32_t kLanes = 4;  // lanes t = 0..3 share a block's row

/// The 16-bit little-endian value at byte `at` of a block, and the 32-bit word at `at`.
uint32_t bytes16(const uint8_t* b, uint32_t at) { return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8; }
uint32_t bytes32(const uint8_t* b, uint32_t at) { return bytes16(b, at) | bytes16(b, at + 2) << 16; }

/// The first k of half h of lane t's values, as the kernel takes them.
uint32_t half_k(BlockFormat f, uint32_t t, uint32_t h) {
  return f == BlockFormat::q8_0 ? 8 * t + 4 * h : 4 * t + 16 * h;
}

/// The kernel's 8 halves (16-bit patterns) for lane t of each block, in output order, then the 8 that rounding left.
std::vector<uint16_t> device_halves(BlockFormat f, const std::vector<uint8_t>& blocks, uint32_t count) {
  std::vector<uint32_t> in(count * kLanes * 4, 0u);
  for (uint32_t b = 0; b < count; ++b) {
    const uint8_t* block = blocks.data() + b * block_bytes(f);
    for (uint32_t t = 0; t < kLanes; ++t) {
      uint32_t* w = &in[(b * kLanes + t) * 4];
      w[0] = bytes16(block, 0) | 0xdead0000u;  // the kernel reads the low half only
      if (f == BlockFormat::q8_0) {
        w[1] = bytes32(block, 2 + 8 * t);
        w[2] = bytes32(block, 6 + 8 * t);
      } else {
        w[1] = bytes32(block, 2 + 4 * t);
      }
    }
  }
  const uint32_t lanes = count * kLanes;
  const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  vk::Buffer in_buf(device(), in.size() * 4, storage, true), out_buf(device(), lanes * 32, storage, true);
  std::memcpy(in_buf.mapped(), in.data(), in.size() * 4);
  std::memset(out_buf.mapped(), 0xAB, lanes * 32);
  const char* module = f == BlockFormat::q8_0 ? "test_quant_halves_q8" : "test_quant_halves_q4";
  vk::ComputePipeline decode(device(), spirv_module(module), {}, {in_buf.handle(), out_buf.handle()}, 4);
  vk::Submitter submitter(device(), 10'000'000'000ull);
  submitter.run([&](VkCommandBuffer cmd) { decode.record_dispatch(cmd, &lanes, (lanes + 63) / 64, 1, 1); });
  std::vector<uint16_t> out(lanes * 16);
  std::memcpy(out.data(), out_buf.mapped(), out.size() * 2);
  return out;
}

void expect_exact_halves(BlockFormat f) {
  constexpr uint32_t kBlocks = 512;
  std::mt19937_64 rng(f == BlockFormat::q8_0 ? 48 : 49);
  std::vector<uint8_t> blocks(kBlocks * block_bytes(f));
  for (uint32_t b = 0; b < kBlocks; ++b) {
    BlockValues v = random_block(f, [&] { return rng(); });
    if (b == 0) v.scale_bits = 0x7bffu;  // the largest f16 scale: products past f16's range become infinities
    encode_block(f, v, blocks.data() + b * block_bytes(f));
  }
  const std::vector<uint16_t> got = device_halves(f, blocks, kBlocks);
  int wrong = 0;
  for (uint32_t b = 0; b < kBlocks; ++b) {
    const uint8_t* block = blocks.data() + b * block_bytes(f);
    for (uint32_t t = 0; t < kLanes; ++t)
      for (uint32_t i = 0; i < 8; ++i) {
        const uint32_t k = half_k(f, t, i / 4) + i % 4;
        // scale x code is exact in double, and in f32 (11 x 8 significant bits); rounded once to f16.
        const uint16_t want = f32_to_f16(float(block_element(f, block, k)));
        const uint16_t have = got[(b * kLanes + t) * 16 + i];
        if (have != want && ++wrong <= 5)
          ADD_FAILURE() << "block " << b << " lane " << t << " k " << k << ": 0x" << std::hex << have << ", want 0x"
                        << want;
      }
  }
  EXPECT_EQ(wrong, 0);
}
}  // namespace

class QuantHalves : public GpuTest {};

TEST_F(QuantHalves, Q8LanesHoldScaleTimesCodeRoundedOnceAtTheirK) { expect_exact_halves(BlockFormat::q8_0); }

TEST_F(QuantHalves, Q4LanesHoldScaleTimesCodeRoundedOnceAtTheirK) { expect_exact_halves(BlockFormat::q4_0); }

}  // namespace gemmtune::test
