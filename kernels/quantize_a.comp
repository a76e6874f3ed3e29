#version 450
// quantize_a: the pre-pass of qrowdp (rules::Prepass::quantize_a in src/core/dispatch_rules.hpp): every 32-element
// block of every row of op(A) written once as integers v = 254 h + l over one step d a block, h and l signed bytes, so
// that the main pass multiplies them with B's codes by packed 8-bit dot products. h is the element over s = max|block|
// / 127 rounded to the nearest even, l the remainder (at most a half) times 254 likewise, and d = s / 254, so an
// element is v d within s / 508: 1.6e-5 of the block's largest element, where one 8-bit part (ggml's q8_1) leaves 4e-3
// and the quantized types' bound is 2e-3 of the product. Eight invocations a block, each four consecutive elements (one
// word of h and one of l), the block's largest by an xor butterfly over the eight, so a subgroup's loads are contiguous
// and a block's chain is one load deep (the qrowdp family requires subgroups of 8 or more); the plane's layout is
// rules::quantized_a_words's (for B in q4_0 blocks a unit's words interleaved, so a part's low- and high-nibble words
// are one vector load). Built per input type like the GEMM kernels (INPUT_<A><B>).

#extension GL_EXT_control_flow_attributes : enable
#extension GL_GOOGLE_include_directive : enable
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_shuffle : enable

layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

#define BLOCK_OPERANDS 1
#include "common/gemm_common.glsl"
#include "common/quant_blocks.glsl"

layout(std430, binding = 4) writeonly buffer BufQuantizedA { uint quantized_words[]; };

void main() {
  const uint blocks = p.K / 32, units = p.M * blocks;
  const uint lane = gl_GlobalInvocationID.x + p.base_x * gl_WorkGroupSize.x;
  // The eight invocations of a block are aligned in their subgroup, so all of them or none pass `valid`, and the
  // butterfly below only reads invocations of the same block; past the end they work on the last block, unwritten.
  const bool valid = lane / 8 < units;
  const uint unit = min(lane / 8, units - 1), w = lane % 8;
  const uint z = gl_WorkGroupID.z + p.base_z;  // matrix z of op(A): 0 where the batch shares A
  const uint i = unit / blocks, b = unit % blocks;
  const uint region = z * (16 * units + (units + 3) / 4 * 4);

  float a[4];
  float largest = 0.0;
  [[unroll]] for (uint j = 0; j < 4; ++j) {
    a[j] = load_op_a(z, i, 32 * b + 4 * w + j);
    largest = max(largest, abs(a[j]));
  }
  [[unroll]] for (uint d = 1; d < 8; d <<= 1) largest = max(largest, subgroupShuffleXor(largest, d));
  const float inverse = largest > 0.0 ? 127.0 / largest : 0.0;
  uint high = 0u, low = 0u;
  [[unroll]] for (uint j = 0; j < 4; ++j) {
    const float x = clamp(a[j] * inverse, -127.0, 127.0);
    const float h = roundEven(x);
    const float l = roundEven((x - h) * 254.0);
    high |= (uint(int(h)) & 0xffu) << (8 * j);
    low |= (uint(int(l)) & 0xffu) << (8 * j);
  }
  if (!valid) return;
#if defined(B_Q8)
  const uint at = w;
#else
  const uint at = w < 4 ? 2 * w : 2 * (w - 4) + 1;
#endif
  quantized_words[region + 16 * unit + at] = high;
  quantized_words[region + 16 * unit + 8 + at] = low;
  if (w == 0) quantized_words[region + 16 * units + unit] = floatBitsToUint(largest / (127.0 * 254.0));
}
