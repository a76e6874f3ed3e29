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
// Problem constants 31: M_ROWS, the rows of op(A) (the problem's M, at most 16); 32: A_ROWS_VECTOR, op(A)'s rows
// contiguous in k and 16-byte aligned, so a block's 32 elements of a row are 4 (f16) or 8 (f32) vector loads.
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
// Problem constant 32: every row of op(A) is contiguous in k and 16-byte aligned (as in gemm_rowdot.comp).
layout(constant_id = 32) const bool A_ROWS_VECTOR = false;

#define BLOCK_OPERANDS 1
#include "common/gemm_common.glsl"

#include "common/quant_blocks.glsl"

// The subgroups' sums: at most one subgroup per 8 invocations (the family requires subgroups of 8 or more).
shared float sums[(gl_WorkGroupSize.x / 8) * ROWS * M_ROWS];

#include "common/split_one_pass.glsl"

float acc[ROWS * M_ROWS];

#if defined(A_F16)
layout(std430, binding = 0) readonly buffer BufQA8 { uvec4 a_u4[]; };  // 8 halves a load, for aligned rows
#else
layout(std430, binding = 0) readonly buffer BufQA4 { vec4 a_v4[]; };  // 4 floats a load, for aligned rows
#endif

/// op(A)'s row i at k = 32 blk .. 32 blk + 31 dotted with a block's 32 codes.
float dot_row(uint z, uint i, uint blk, float code[32]) {
  const uint a0 = index_op_a(z, i, blk * 32);
  float dot = 0.0;
  if (A_ROWS_VECTOR) {
    // The row is contiguous in k and 16-byte aligned, and 32 elements are whole vectors.
#if defined(A_F16)
    [[unroll]] for (uint v = 0; v < 4; ++v) {
      const uvec4 w = a_u4[a0 / 8 + v];
      [[unroll]] for (uint h = 0; h < 4; ++h) {
        const vec2 pair = unpackHalf2x16(w[h]);
        dot = fma(pair.x, code[v * 8 + h * 2], dot);
        dot = fma(pair.y, code[v * 8 + h * 2 + 1], dot);
      }
    }
#else
    [[unroll]] for (uint v = 0; v < 8; ++v) {
      const vec4 a = a_v4[a0 / 4 + v];
      [[unroll]] for (uint e = 0; e < 4; ++e) dot = fma(a[e], code[v * 4 + e], dot);
    }
#endif
  } else {
    [[unroll]] for (uint j = 0; j < 32; ++j) dot = fma(load_a(TRANS_A ? a0 + j * p.lda : a0 + j), code[j], dot);
  }
  return dot;
}

/// Adds block `blk` (k = 32 blk .. 32 blk + 31) of row n of B times op(A)'s matching elements into the
/// accumulators of output column r: the block decoded once into registers, then a dot for every row of op(A).
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
  // Code byte j of the block is byte 2 + j.
  float code[32];
#if defined(B_Q8)
  [[unroll]] for (uint j = 0; j < 32; ++j)
    code[j] = float(bitfieldExtract(int(q[(2 + j) / 4]), int(8 * ((2 + j) % 4)), 8));
#else
  [[unroll]] for (uint j = 0; j < 16; ++j) {
    const uint packed = bitfieldExtract(q[(2 + j) / 4], int(8 * ((2 + j) % 4)), 8);
    code[j] = float(int(packed & 15u) - 8), code[j + 16] = float(int(packed >> 4) - 8);
  }
#endif
  [[unroll]] for (uint i = 0; i < M_ROWS; ++i)
    acc[r * M_ROWS + i] = fma(scale, dot_row(z, i, blk, code), acc[r * M_ROWS + i]);
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
