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
// matters here). With arriving ranges (ARRIVING, rules::DispatchRule::arrive) the grid runs along the rows of B first
// (x: n, y: the range of 2048 k), so the ranges finish in order beside the main pass, and each workgroup of a later
// range counts itself done after its stores (past the plane, quant_blocks.glsl's arrival_count_index); the pass before
// the main one zeroes those counts.

#extension GL_GOOGLE_include_directive : enable

layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;

#define BLOCK_OPERANDS 1
#define ARRIVING_COUNTS 1  // quant_blocks.glsl's counts of arriving ranges
#include "common/gemm_common.glsl"
#include "common/quant_blocks.glsl"

// Coherent: with arriving ranges the main pass reads a range as soon as its count is complete.
layout(std430, binding = 4) coherent writeonly buffer BufPlane { uvec4 plane_groups[]; };
layout(std430, binding = 4) coherent buffer BufCounts { uint counts[]; };

const uint BLOCKS = 64;                            // blocks a workgroup: 256 groups of 8 elements
const uint WORDS = (BLOCKS * BLOCK_BYTES) / 4 + 2;  // the words covering them, from a 2-byte aligned start
shared uint raw[WORDS];

/// Bytes at .. at + 3 of the staged words (at even), as b_word_at reads them from the buffer.
uint raw_word_at(uint at) {
  const uint lo = raw[at >> 2];
  if ((at & 2u) == 0u) return lo;
  return (lo >> 16) | (raw[(at >> 2) + 1] << 16);
}

void decode_group(uint k0, uint n, uint z, uint first_byte, uint blk, uint e0, uint lid) {
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

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint range = ARRIVING > 0u ? gl_WorkGroupID.y + p.base_y : gl_WorkGroupID.x + p.base_x;
  const uint n = ARRIVING > 0u ? gl_WorkGroupID.x + p.base_x : gl_WorkGroupID.y + p.base_y;
  const uint z = gl_WorkGroupID.z + p.base_z;
  const uint k0 = range * (BLOCKS * 32);
  const uint blocks = min(BLOCKS, (p.K - k0) / 32);  // K is a multiple of 32
  const uint first_byte = (index_op_b(z, k0, n) / 32) * BLOCK_BYTES;
  const uint first_word = first_byte >> 2, words = (first_byte + blocks * BLOCK_BYTES + 3) / 4 - first_word;
  for (uint w = lid; w < words; w += 256) raw[w] = b_words[first_word + w];
  barrier();
  const uint blk = lid / 4, e0 = (lid % 4) * 8;
  if (blk < blocks) decode_group(k0, n, z, first_byte, blk, e0, lid);
  if (ARRIVING == 0u) return;
  const uint count_words = uint(counts.length());  // z: the plane (the grid has one z a matrix of B)
  if (range < ARRIVING) {
    if (n == 0u && range == 0u)
      for (uint r = ARRIVING + lid; r < arrival_ranges(); r += 256) counts[arrival_count_index(count_words, z, r)] = 0u;
    return;
  }
  memoryBarrierBuffer();  // the stores out before the count
  barrier();
  if (lid == 0u) atomicAdd(counts[arrival_count_index(count_words, z, range)], 1u);
}
