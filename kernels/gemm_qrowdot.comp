#version 450
// gemm_qrowdot: decoding-sized products (at most 16 rows of op(A)) with B a linear layer's weight in ggml's blocks
// (core/block_format.hpp), stored N x K (layouts nt and tt): each block is 32 consecutive k of one row of B, an f16
// scale and its codes. A workgroup streams ROWS rows of B once; each invocation takes every WG-th block of those
// rows, decodes it in registers and adds scale x (the 32 codes . op(A)'s 32 elements) for every row of op(A). The
// blocks are 34 (q8_0) or 18 (q4_0) bytes, so only 2-byte aligned: an invocation reads the 32-bit words that
// cover its block and shifts them by half a word where the block starts mid-word.
//
// Summation order: each invocation chains its blocks in increasing k; a subgroup adds its invocations' sums by an
// xor butterfly, and the subgroups' sums are added in subgroup order through shared memory (as gemm_rowdot.comp).
// Split-k in one pass (problem constant 25: SPLIT > 1; ranges are multiples of 32 terms, so whole blocks) as in
// gemm_rowdot.comp: each range's sums to the scratch planes, the last workgroup of a block to arrive finishes it.
//
// Tuned specialization constants (id: meaning): 0: workgroup size  1: ROWS, rows of B (columns of C) a workgroup.
// Problem constant 31: M_ROWS, the rows of op(A) (the problem's M, at most 16).
// Input defines: INPUT_<A><B> with A f16 or f32 (the activations) and B q8 (q8_0) or q4 (q4_0).

#extension GL_EXT_control_flow_attributes : enable
#extension GL_GOOGLE_include_directive : enable
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_shuffle : enable

#if defined(INPUT_F16Q8) || defined(INPUT_F32Q8)
const uint BLOCK_WORDS = 9;  // the 32-bit words covering a block, wherever it starts (blocks start on even bytes)
#else
const uint BLOCK_WORDS = 5;
#endif

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint ROWS = 2;
layout(constant_id = 31) const uint M_ROWS = 1;

#define BLOCK_OPERANDS 1
#include "common/gemm_common.glsl"

#include "common/quant_blocks.glsl"

// The subgroups' sums: at most one subgroup per 8 invocations (the family requires subgroups of 8 or more).
shared float sums[(gl_WorkGroupSize.x / 8) * ROWS * M_ROWS];

#include "common/split_one_pass.glsl"

float acc[ROWS * M_ROWS];

/// Adds block `blk` (k = 32 blk .. 32 blk + 31) of row n of B times op(A)'s matching elements into the
/// accumulators of output column r.
void add_block(uint z, uint r, uint n, uint blk) {
  // Element index of the block's first value, then its first byte.
  const uint first = index_op_b(z, blk * 32, n);
  const uint byte0 = (first / 32) * BLOCK_BYTES;
  uint w[BLOCK_WORDS];
  [[unroll]] for (uint t = 0; t < BLOCK_WORDS; ++t) w[t] = b_words[byte0 / 4 + t];
  // Realign so the scale is the low half of word 0 and the codes start at byte 2 of it.
  const bool odd_half = (byte0 & 2u) != 0u;
  uint q[BLOCK_WORDS];  // q[t]: bytes 4t .. 4t + 3 of the block
  [[unroll]] for (uint t = 0; t < BLOCK_WORDS; ++t)
    q[t] = odd_half ? (w[t] >> 16) | (t + 1 < BLOCK_WORDS ? w[t + 1] << 16 : 0u) : w[t];
  const float scale = unpackHalf2x16(q[0] & 0xffffu).x;
  // Code byte j of the block is byte 2 + j: bits 16..23 of word (2 + j) / 4 and so on.
  [[unroll]] for (uint i = 0; i < M_ROWS; ++i) {
    const uint a0 = index_op_a(z, i, blk * 32);
    float dot = 0.0;
#if defined(B_Q8)
    [[unroll]] for (uint j = 0; j < 32; ++j) {
      const uint byte = 2 + j;
      const int code = bitfieldExtract(int(q[byte / 4]), int(8 * (byte % 4)), 8);
      dot = fma(float(code), load_a(TRANS_A ? a0 + j * p.lda : a0 + j), dot);
    }
#else
    [[unroll]] for (uint j = 0; j < 16; ++j) {
      const uint byte = 2 + j;
      const uint packed = bitfieldExtract(q[byte / 4], int(8 * (byte % 4)), 8);
      const float low = float(int(packed & 15u) - 8), high = float(int(packed >> 4) - 8);
      dot = fma(low, load_a(TRANS_A ? a0 + j * p.lda : a0 + j), dot);
      dot = fma(high, load_a(TRANS_A ? a0 + (j + 16) * p.lda : a0 + j + 16), dot);
    }
#endif
    acc[r * M_ROWS + i] = fma(scale, dot, acc[r * M_ROWS + i]);
  }
}

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint wg = gl_WorkGroupSize.x;
  const uint block = (gl_WorkGroupID.x + p.base_x) / SPLIT, range = (gl_WorkGroupID.x + p.base_x) % SPLIT;
  const uint kb = range * p.k_split, ke = min(p.K, kb + p.k_split);  // this workgroup's k, whole blocks
  const uint n0 = block * ROWS;
  const uint z = gl_WorkGroupID.z + p.base_z;
  [[unroll]] for (uint t = 0; t < ROWS * M_ROWS; ++t) acc[t] = 0.0;

  if (p.alpha != 0.0) {
    for (uint blk = kb / 32 + lid; blk < ke / 32; blk += wg) {
      [[unroll]] for (uint r = 0; r < ROWS; ++r) add_block(z, r, min(n0 + r, p.N - 1), blk);  // past N: the last
    }
  }

  // Each subgroup's sums by an xor butterfly, then the subgroups' sums in subgroup order.
  [[unroll]] for (uint t = 0; t < ROWS * M_ROWS; ++t) {
    float v = acc[t];
    for (uint d = 1; d < gl_SubgroupSize; d <<= 1) v = v + subgroupShuffleXor(v, d);
    acc[t] = v;
  }
  if (gl_SubgroupInvocationID == 0) {
    [[unroll]] for (uint t = 0; t < ROWS * M_ROWS; ++t) sums[gl_SubgroupID * ROWS * M_ROWS + t] = acc[t];
  }
  barrier();
  for (uint t = lid; t < ROWS * M_ROWS; t += wg) {
    const uint r = t / M_ROWS, i = t % M_ROWS;
    if (n0 + r >= p.N) continue;
    precise float sum = sums[t];
    for (uint g = 1; g < gl_NumSubgroups; ++g) sum = sum + sums[g * ROWS * M_ROWS + t];
    if (SPLIT == 1) {
      c_data[c_index(z, i, n0 + r)] = finish(sum, z, i, n0 + r);
    } else {
      planes[scratch_index(z, range, i, n0 + r)] = sum;
    }
  }
  if (SPLIT == 1) return;

  const uint counter = z * ((p.N + ROWS - 1) / ROWS) + block;
  if (!split_last_to_arrive(counter)) return;
  for (uint t = lid; t < ROWS * M_ROWS; t += wg) {
    const uint r = t / M_ROWS, i = t % M_ROWS;
    if (n0 + r < p.N) c_data[c_index(z, i, n0 + r)] = finish(split_planes_sum(z, i, n0 + r), z, i, n0 + r);
  }
  split_reset_arrivals(counter);
}
