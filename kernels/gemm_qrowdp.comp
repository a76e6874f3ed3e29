#version 450
// gemm_qrowdp: decoding-sized products (at most 16 rows of op(A)) with B a linear layer's weight in ggml's blocks,
// stored N x K (layouts nt and tt), multiplied by packed 8-bit dot products. The pre-pass (quantize_a.comp) has
// written every 32-element block of every row of op(A) as integers v = 254 h + l over a step d, h and l signed bytes,
// into binding 4. B streams as in gemm_qrowdot.comp (common/quant_parts.glsl: halves or quarters of blocks, AHEAD
// blocks' words loaded before any is used, GROUPS groups of subgroups on different rows at the same k). For a part
// of a block, a row of B (scale s, codes c) and a row of op(A) (step d), the part's terms sum to
// s d (254 c.h + c.l): c.h and c.l are packed dot products of a word of codes with a word of h or l bytes (4 terms
// each), exact in 32 bits (|254 c.h + c.l| < 2^27), and the sum becomes an f32 once a part. q8_0's codes are its
// bytes as they are; q4_0's nibbles are unsigned bytes n = c + 8, whose offset comes off once a part and row of op(A):
// c.v = n.v - 8 (sum of v), the sum by dot products with 1s. No decoding to floats: about 2 operations a word of
// codes a row of B, and 2 dot products a word a pair of rows, where gemm_qrowdot.comp spends about 10 and 4.
//
// Summation order: each invocation chains its parts in increasing k; a subgroup adds its invocations' sums by an xor
// butterfly, and the subgroups' sums are added in subgroup order through shared memory (as gemm_qrowdot.comp).
//
// Tuned specialization constants (id: meaning): 0: workgroup size  1: ROWS, rows of B (columns of C) a group
// 2: LANES, invocations a block (2 or 4)
// 3: AHEAD, blocks an invocation loads before it uses them
// 4: GROUPS, groups of whole subgroups taking different rows of B (the workgroup's rows: ROWS x GROUPS).
// Problem constant 31: M_ROWS, the rows of op(A) (the problem's M, at most 16).
// Input defines: INPUT_<A><B> with A f16 or f32 (the activations; only the pre-pass reads them) and B q8 or q4.

#extension GL_EXT_control_flow_attributes : enable
#extension GL_GOOGLE_include_directive : enable
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_shuffle : enable
#extension GL_EXT_integer_dot_product : require

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint ROWS = 2;
layout(constant_id = 2) const uint LANES = 2;
layout(constant_id = 3) const uint AHEAD = 1;
layout(constant_id = 4) const uint GROUPS = 1;
layout(constant_id = 31) const uint M_ROWS = 1;

#define BLOCK_OPERANDS 1
#define A_PLANE 1
#include "common/gemm_common.glsl"

#include "common/quant_blocks.glsl"

#include "common/quant_parts.glsl"

// The pre-pass's plane (rules::quantized_a_words), as words and as 8- and 16-byte vectors.
layout(std430, binding = 4) readonly buffer BufQuantizedA { uint qa_words[]; };
layout(std430, binding = 4) readonly buffer BufQuantizedA2 { uvec2 qa_pairs[]; };
layout(std430, binding = 4) readonly buffer BufQuantizedA4 { uvec4 qa_quads[]; };

// The subgroups' sums: at most one subgroup per 8 invocations (the family requires subgroups of 8 or more).
shared float sums[(gl_WorkGroupSize.x / 8) * ROWS * M_ROWS];

float acc[ROWS * M_ROWS];

/// The part's RUNS words of h (or of l: `l_half` 8) bytes of the unit starting at word `unit_word` (a multiple of 4):
/// run v covers elements run_element(h, v) .. + 3. q8_0's are words run_element(h, v) / 4, in order; q4_0's low- and
/// high-nibble words lie interleaved (quantize_a.comp), so either type's part is one 8- or 16-byte load.
void load_a_words(uint unit_word, uint h, uint l_half, out uint words[RUNS]) {
  const uint at = unit_word + l_half;
#if defined(B_Q8)
  if (PART_WORDS == 4) {  // halves: words 4h .. 4h + 3
    const uvec4 q = qa_quads[at / 4 + h];
    words[0] = q.x, words[min(1, RUNS - 1)] = q.y, words[min(2, RUNS - 1)] = q.z, words[RUNS - 1] = q.w;
  } else {  // quarters: words 2h, 2h + 1
    const uvec2 q = qa_pairs[at / 2 + h];
    words[0] = q.x, words[RUNS - 1] = q.y;
  }
#else
  if (PART_WORDS == 2) {  // halves: low-nibble words 2h, 2h + 1 at 4h, 4h + 2; high-nibble ones at 4h + 1, 4h + 3
    const uvec4 q = qa_quads[at / 4 + h];
    words[0] = q.x, words[min(1, RUNS - 1)] = q.z, words[min(2, RUNS - 1)] = q.y, words[RUNS - 1] = q.w;
  } else {  // quarters: low-nibble word h at 2h, high-nibble word 4 + h at 2h + 1
    const uvec2 q = qa_pairs[at / 2 + h];
    words[0] = q.x, words[RUNS - 1] = q.y;
  }
#endif
}

/// The codes of run v of the part in slot `slot` as 4 signed bytes (q8_0) or unsigned nibbles (q4_0).
int run_code_bytes(uint slot, uint v) {
#if defined(B_Q8)
  return int(ahead_words[slot * PART_WORDS + v]);
#else
  return v < PART_WORDS ? int(ahead_words[slot * PART_WORDS + v] & 0x0f0f0f0fu)
                        : int((ahead_words[slot * PART_WORDS + v - PART_WORDS] >> 4) & 0x0f0f0f0fu);
#endif
}

/// Adds the part in slot u times the matching part of every row i of op(A) (block blk's 16 words at a_row[i] + 16 blk,
/// its step at word d_row[i] + blk) into the accumulators.
void add_part(uint u, uint a_row[M_ROWS], uint d_row[M_ROWS], uint blk, uint h) {
  float scale[ROWS];
  int codes[ROWS * RUNS];
  [[unroll]] for (uint r = 0; r < ROWS; ++r) {
    scale[r] = unpackHalf2x16(ahead_scale[u * ROWS + r] & 0xffffu).x;
    [[unroll]] for (uint v = 0; v < RUNS; ++v) codes[r * RUNS + v] = run_code_bytes(u * ROWS + r, v);
  }
  [[unroll]] for (uint i = 0; i < M_ROWS; ++i) {
    uint hw[RUNS], lw[RUNS];
    load_a_words(a_row[i] + 16 * blk, h, 0, hw);
    load_a_words(a_row[i] + 16 * blk, h, 8, lw);
    const float d = uintBitsToFloat(qa_words[d_row[i] + blk]);
#if defined(B_Q8)
    const int offset = 0;
#else
    // q4_0's codes are n - 8: 8 x the part's sum of v comes off every row's 254 n.h + n.l.
    int sum_h = 0, sum_l = 0;
    [[unroll]] for (uint v = 0; v < RUNS; ++v) {
      sum_h += dotPacked4x8EXT(0x01010101, int(hw[v]));
      sum_l += dotPacked4x8EXT(0x01010101, int(lw[v]));
    }
    const int offset = 8 * (254 * sum_h + sum_l);
#endif
    [[unroll]] for (uint r = 0; r < ROWS; ++r) {
      int dot_h = 0, dot_l = 0;
      [[unroll]] for (uint v = 0; v < RUNS; ++v) {
        dot_h += dotPacked4x8EXT(codes[r * RUNS + v], int(hw[v]));
        dot_l += dotPacked4x8EXT(codes[r * RUNS + v], int(lw[v]));
      }
      acc[r * M_ROWS + i] = fma(float(254 * dot_h + dot_l - offset), d * scale[r], acc[r * M_ROWS + i]);
    }
  }
}

void main() {
  // This invocation's group takes rows n0 .. n0 + ROWS - 1; lid and wg are its place and size in the group (whole
  // subgroups: the family requires groups of at least the largest subgroup).
  const uint wg = gl_WorkGroupSize.x / GROUPS;
  const uint lid = gl_LocalInvocationID.x % wg, group = gl_LocalInvocationID.x / wg;
  const uint block = gl_WorkGroupID.x + p.base_x;
  const uint n_wg = block * ROWS * GROUPS;  // the workgroup's first row of B
  const uint n0 = n_wg + group * ROWS;
  const uint z = gl_WorkGroupID.z + p.base_z;
  [[unroll]] for (uint t = 0; t < ROWS * M_ROWS; ++t) acc[t] = 0.0;

  if (p.alpha != 0.0) {
    // Rows past N read the last row (their sums are never stored).
    uint row_byte[ROWS];
    [[unroll]] for (uint r = 0; r < ROWS; ++r)
      row_byte[r] = (index_op_b(z, 0, min(n0 + r, p.N - 1)) / 32) * BLOCK_BYTES;
    // op(A)'s plane: matrix z's region (one where the batch shares A), its units row by row, then its steps.
    const uint blocks = p.K / 32, units = M_ROWS * blocks;
    const uint region = (p.stride_a != 0u ? z : 0u) * (16 * units + (units + 3) / 4 * 4);
    uint a_row[M_ROWS], d_row[M_ROWS];
    [[unroll]] for (uint i = 0; i < M_ROWS; ++i) {
      a_row[i] = region + 16 * i * blocks;
      d_row[i] = region + 16 * units + i * blocks;
    }
    // AHEAD blocks a step, every one's words loaded before any is used; steps past the end load its last block
    // again and add nothing.
    const uint stride = wg / LANES;
    for (uint blk = lid / LANES; blk < blocks; blk += AHEAD * stride) {
      [[unroll]] for (uint u = 0; u < AHEAD; ++u) {
        load_part(row_byte, min(blk + u * stride, blocks - 1), lid % LANES, u);
      }
      [[unroll]] for (uint u = 0; u < AHEAD; ++u) {
        if (blk + u * stride < blocks) add_part(u, a_row, d_row, blk + u * stride, lid % LANES);
      }
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
  const uint per_group = gl_NumSubgroups / GROUPS;
  for (uint t = gl_LocalInvocationID.x; t < GROUPS * ROWS * M_ROWS; t += gl_WorkGroupSize.x) {
    const uint g0 = (t / (ROWS * M_ROWS)) * per_group, u = t % (ROWS * M_ROWS);
    const uint n = n_wg + t / M_ROWS, i = t % M_ROWS;
    if (n >= p.N) continue;
    precise float sum = sums[g0 * ROWS * M_ROWS + u];
    for (uint g = 1; g < per_group; ++g) sum = sum + sums[(g0 + g) * ROWS * M_ROWS + u];
    c_data[c_index(z, i, n)] = finish(sum, z, i, n);
  }
}
