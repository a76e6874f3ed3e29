#version 450
// decode_blocks: the pre-pass of the configs that decode block-quantized B once (rules::Prepass::decode_b in
// src/core/dispatch_rules.hpp): every element of op(B) (stored N x K in ggml's blocks) written once as f16 to the
// scratch buffer, element (z, n, k) at z x N x K (0 where B is shared by the batch) + n x K + k, so the main pass
// stages plain f16 rows instead of decoding each block once per tile that reads it. A workgroup takes 64 blocks of
// one row (2048 k): it copies their bytes into shared memory as whole words, neighbouring invocations reading
// neighbouring words (the blocks are 34 or 18 bytes, only 2-byte aligned, so loads straight from the buffer would be
// scattered), then each invocation decodes a group of 8 elements from there and writes it as one 16-byte store, the
// workgroup's stores contiguous. scale x code is exact in f32 and rounded once to f16 (within the f16 input bound the
// quantized types are held to). Built per input type like the GEMM kernels (INPUT_<A><B>; only B's block type
// matters here).

#extension GL_GOOGLE_include_directive : enable

layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;

#define BLOCK_OPERANDS 1
#include "common/gemm_common.glsl"
#include "common/quant_blocks.glsl"

layout(std430, binding = 4) writeonly buffer BufPlane { uvec4 plane_groups[]; };

const uint BLOCKS = 64;                            // blocks a workgroup: 256 groups of 8 elements
const uint WORDS = (BLOCKS * BLOCK_BYTES) / 4 + 2;  // the words covering them, from a 2-byte aligned start
shared uint raw[WORDS];

/// Bytes at .. at + 3 of the staged words (at even), as b_word_at reads them from the buffer.
uint raw_word_at(uint at) {
  const uint lo = raw[at >> 2];
  if ((at & 2u) == 0u) return lo;
  return (lo >> 16) | (raw[(at >> 2) + 1] << 16);
}

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint k0 = (gl_WorkGroupID.x + p.base_x) * (BLOCKS * 32);
  const uint n = gl_WorkGroupID.y + p.base_y, z = gl_WorkGroupID.z + p.base_z;
  const uint blocks = min(BLOCKS, (p.K - k0) / 32);  // K is a multiple of 32
  const uint first_byte = (index_op_b(z, k0, n) / 32) * BLOCK_BYTES;
  const uint first_word = first_byte >> 2, words = (first_byte + blocks * BLOCK_BYTES + 3) / 4 - first_word;
  for (uint w = lid; w < words; w += 256) raw[w] = b_words[first_word + w];
  barrier();
  const uint blk = lid / 4, e0 = (lid % 4) * 8;
  if (blk >= blocks) return;
  const uint byte0 = (first_byte & 3u) + blk * BLOCK_BYTES;  // the block's first byte among the staged words
  const float scale = unpackHalf2x16(raw_word_at(byte0) & 0xffffu).x;
  vec4 lo, hi;
#if defined(B_Q8)
  lo = q8_codes(raw_word_at(byte0 + 2 + e0)) * scale;
  hi = q8_codes(raw_word_at(byte0 + 6 + e0)) * scale;
#else
  // Codes 16..31 are the high nibbles of code bytes 0..15.
  const uint w0 = raw_word_at(byte0 + 2 + (e0 & 15u)), w1 = raw_word_at(byte0 + 6 + (e0 & 15u));
  lo = (e0 < 16 ? q4_low_codes(w0) : q4_high_codes(w0)) * scale;
  hi = (e0 < 16 ? q4_low_codes(w1) : q4_high_codes(w1)) * scale;
#endif
  plane_groups[plane_index(z, k0 + lid * 8, n) / 8] =
      uvec4(packHalf2x16(lo.xy), packHalf2x16(lo.zw), packHalf2x16(hi.xy), packHalf2x16(hi.zw));
}
