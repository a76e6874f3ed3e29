#version 450
// gemm_qrowdot: decoding-sized products (at most 16 rows of op(A)) with B a linear layer's weight in ggml's blocks
// (core/block_format.hpp), stored N x K (layouts nt and tt): each block is 32 consecutive k of one row of B, an f16
// scale and its codes. A workgroup streams ROWS rows of B once. With LANES 1 each invocation takes every WG-th block of
// those rows and decodes it whole in registers; with LANES 2 or 4 neighbouring invocations share a block, each a half
// (16 k) or a quarter (8 k) of its codes, so a subgroup's loads of B and of op(A) cover contiguous bytes, and load the
// words of AHEAD blocks before decoding any, so that more of B is in flight. With GROUPS > 1 the workgroup's subgroups
// split into GROUPS groups, each ROWS rows of B over the same k range, so the groups read the same elements of op(A) at
// about the same time and all but the first find them in L1 (op(A) is read whole by every workgroup: at M = 8 its
// traffic from L2 is many times the blocks'). Every decoded code is added scale x (codes . op(A)'s elements) for every
// row of op(A). The blocks are 34 (q8_0) or 18 (q4_0) bytes, so only 2-byte aligned: an invocation reads the 32-bit
// words that cover its bytes and shifts them by half a word where they start mid-word; both types' codes become floats
// two at a time through f16 pairs (16-bit arithmetic; word_codes).
//
// Summation order: each invocation chains its blocks in increasing k; a subgroup adds its invocations' sums by an
// xor butterfly, and the subgroups' sums are added in subgroup order through shared memory (as gemm_rowdot.comp).
// Split-k in one pass (problem constant 25: SPLIT > 1; ranges are multiples of 32 terms, so whole blocks) as in
// gemm_rowdot.comp: each range's sums to the scratch planes, the last workgroup of a block to arrive finishes it.
//
// Tuned specialization constants (id: meaning): 0: workgroup size  1: ROWS, rows of B (columns of C) a workgroup
// 2: LANES, invocations a block (1, 2 or 4)
// 3: AHEAD, blocks an invocation loads before it decodes them (LANES 2 or 4)
// 4: GROUPS, groups of whole subgroups taking different rows of B (the workgroup's rows: ROWS x GROUPS).
// Problem constants 31: M_ROWS, the rows of op(A) (the problem's M, at most 16); 32: A_ROWS_VECTOR, op(A)'s rows
// contiguous in k and 16-byte aligned, so runs of 4 elements of a row are vector loads.
// Input defines: INPUT_<A><B> with A f16 or f32 (the activations) and B q8 (q8_0) or q4 (q4_0).

#extension GL_EXT_control_flow_attributes : enable
#extension GL_GOOGLE_include_directive : enable
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_shuffle : enable
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint ROWS = 2;
layout(constant_id = 2) const uint LANES = 1;
layout(constant_id = 3) const uint AHEAD = 1;
layout(constant_id = 4) const uint GROUPS = 1;
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

#if defined(B_Q8)
// q8_0's codes become floats two at a time: a byte (its sign bit flipped) OR-ed into a half of 1024.0's f16 pair is
// 1024 + the biased code exactly, and one packed subtract of the bias leaves two codes, exactly, about two thirds of
// the operations of one float a code (quant_blocks.glsl's form); products and sums stay f32.
/// Four q8_0 codes: the int8 bytes of a word.
vec4 word_codes(uint w) {
  const f16vec2 bias = f16vec2(float16_t(1152.0));  // 1024 + 128
  w ^= Q8_SIGN_BITS;
  const vec2 c02 = vec2(unpackFloat2x16((w & 0x00ff00ffu) | 0x64006400u) - bias);
  const vec2 c13 = vec2(unpackFloat2x16(((w >> 8) & 0x00ff00ffu) | 0x64006400u) - bias);
  return vec4(c02.x, c13.x, c02.y, c13.y);
}
#else
// q4_0's codes become floats two at a time as q8_0's do: a nibble OR-ed into a half of 1024.0's f16 pair, one packed
// subtract of 1024 + 8. (Decoding each nibble in place, OR-ed into 2^(23 - s)'s mantissa, ran 5-7 % slower.)
/// Four q4_0 codes: the low nibbles of a word's four bytes (`high`: the high nibbles).
vec4 word_codes(uint w, bool high) {
  if (high) w >>= 4;
  const f16vec2 bias = f16vec2(float16_t(1032.0));  // 1024 + 8
  const vec2 c02 = vec2(unpackFloat2x16((w & 0x000f000fu) | 0x64006400u) - bias);
  const vec2 c13 = vec2(unpackFloat2x16(((w >> 8) & 0x000f000fu) | 0x64006400u) - bias);
  return vec4(c02.x, c13.x, c02.y, c13.y);
}
#endif

#if defined(A_F16)
layout(std430, binding = 0) readonly buffer BufQA8 { uvec2 a_u2[]; };  // 4 halves a load, for aligned rows
#else
layout(std430, binding = 0) readonly buffer BufQA4 { vec4 a_v4[]; };  // 4 floats a load, for aligned rows
#endif

/// op(A)'s elements e .. e + 3 of the row whose element k = 0 is at index a0 (a block's first, 32-aligned k).
vec4 load_a_run(uint a0, uint e) {
  if (A_ROWS_VECTOR) {  // the row is contiguous in k and 16-byte aligned, so a run of 4 is one load
#if defined(A_F16)
    const uvec2 w = a_u2[(a0 + e) / 4];
    return vec4(unpackHalf2x16(w.x), unpackHalf2x16(w.y));
#else
    return a_v4[(a0 + e) / 4];
#endif
  }
  vec4 run;
  [[unroll]] for (uint j = 0; j < 4; ++j) run[j] = load_a(TRANS_A ? a0 + (e + j) * p.lda : a0 + e + j);
  return run;
}

/// Adds block `blk` (k = 32 blk .. 32 blk + 31) of row n of B times op(A)'s matching elements into the
/// accumulators of output column r: the block decoded once into registers, then a dot for every row of op(A).
void add_block(uint z, uint r, uint n, uint blk) {
  const uint byte0 = (index_op_b(z, blk * 32, n) / 32) * BLOCK_BYTES;
  const float scale = block_scale(byte0);
  // Codes 4t .. 4t + 3 (q8_0), or codes 4t .. 4t + 3 and 4t + 16 .. 4t + 19 (q4_0), from word t of the codes.
  vec4 code[8];
#if defined(B_Q8)
  [[unroll]] for (uint t = 0; t < 8; ++t) code[t] = word_codes(b_word_at(byte0 + 2 + 4 * t));
#else
  [[unroll]] for (uint t = 0; t < 4; ++t) {
    const uint w = b_word_at(byte0 + 2 + 4 * t);
    code[t] = word_codes(w, false), code[t + 4] = word_codes(w, true);
  }
#endif
  [[unroll]] for (uint i = 0; i < M_ROWS; ++i) {
    const uint a0 = index_op_a(z, i, blk * 32);
    float dot = 0.0;
    [[unroll]] for (uint t = 0; t < 8; ++t) {
      const vec4 a = load_a_run(a0, 4 * t);
      [[unroll]] for (uint e = 0; e < 4; ++e) dot = fma(a[e], code[t][e], dot);
    }
    acc[r * M_ROWS + i] = fma(scale, dot, acc[r * M_ROWS + i]);
  }
}

#include "common/quant_parts.glsl"

/// The codes of run v of the part in slot `slot`.
vec4 run_codes(uint slot, uint v) {
#if defined(B_Q8)
  return word_codes(ahead_words[slot * PART_WORDS + v]);
#else
  return v < PART_WORDS ? word_codes(ahead_words[slot * PART_WORDS + v], false)
                        : word_codes(ahead_words[slot * PART_WORDS + v - PART_WORDS], true);
#endif
}

/// Adds the part in slot u times op(A)'s matching elements (from its rows' first elements, `a_row`) into the
/// accumulators. What is held at once is the smaller of the rows' codes (decoded first, then op(A)'s elements
/// loaded once for all of them) and op(A)'s elements (loaded first, then each row of B decoded and used at once).
void add_part(uint u, uint a_row[M_ROWS], uint blk, uint h) {
  const uint a_k = TRANS_A ? p.lda : 1;  // elements between op(A)'s k and k + 1
  float scale[ROWS];
  [[unroll]] for (uint r = 0; r < ROWS; ++r) scale[r] = unpackHalf2x16(ahead_scale[u * ROWS + r] & 0xffffu).x;
  if (M_ROWS < ROWS) {
    vec4 a[M_ROWS * RUNS];
    [[unroll]] for (uint i = 0; i < M_ROWS; ++i) {
      const uint a0 = a_row[i] + blk * 32 * a_k;
      [[unroll]] for (uint v = 0; v < RUNS; ++v) a[i * RUNS + v] = load_a_run(a0, run_element(h, v));
    }
    [[unroll]] for (uint r = 0; r < ROWS; ++r) {
      vec4 c[RUNS];
      [[unroll]] for (uint v = 0; v < RUNS; ++v) c[v] = run_codes(u * ROWS + r, v);
      [[unroll]] for (uint i = 0; i < M_ROWS; ++i) {
        float dot = 0.0;
        [[unroll]] for (uint v = 0; v < RUNS; ++v) {
          [[unroll]] for (uint e = 0; e < 4; ++e) dot = fma(a[i * RUNS + v][e], c[v][e], dot);
        }
        acc[r * M_ROWS + i] = fma(scale[r], dot, acc[r * M_ROWS + i]);
      }
    }
  } else {
    vec4 c[ROWS * RUNS];
    [[unroll]] for (uint r = 0; r < ROWS; ++r) {
      [[unroll]] for (uint v = 0; v < RUNS; ++v) c[r * RUNS + v] = run_codes(u * ROWS + r, v);
    }
    [[unroll]] for (uint i = 0; i < M_ROWS; ++i) {
      const uint a0 = a_row[i] + blk * 32 * a_k;
      vec4 a[RUNS];
      [[unroll]] for (uint v = 0; v < RUNS; ++v) a[v] = load_a_run(a0, run_element(h, v));
      [[unroll]] for (uint r = 0; r < ROWS; ++r) {
        float dot = 0.0;
        [[unroll]] for (uint v = 0; v < RUNS; ++v) {
          [[unroll]] for (uint e = 0; e < 4; ++e) dot = fma(a[v][e], c[r * RUNS + v][e], dot);
        }
        acc[r * M_ROWS + i] = fma(scale[r], dot, acc[r * M_ROWS + i]);
      }
    }
  }
}

void main() {
  // This invocation's group takes rows n0 .. n0 + ROWS - 1; lid and wg are its place and size in the group (whole
  // subgroups: the family requires groups of at least the largest subgroup).
  const uint wg = gl_WorkGroupSize.x / GROUPS;
  const uint lid = gl_LocalInvocationID.x % wg, group = gl_LocalInvocationID.x / wg;
  const uint block = (gl_WorkGroupID.x + p.base_x) / SPLIT, range = (gl_WorkGroupID.x + p.base_x) % SPLIT;
  const uint kb = range * p.k_split, ke = min(p.K, kb + p.k_split);  // this workgroup's k, whole blocks
  const uint n_wg = block * ROWS * GROUPS;  // the workgroup's first row of B
  const uint n0 = n_wg + group * ROWS;
  const uint z = gl_WorkGroupID.z + p.base_z;
  [[unroll]] for (uint t = 0; t < ROWS * M_ROWS; ++t) acc[t] = 0.0;

  if (p.alpha != 0.0) {
    // Rows past N read the last row (their sums are never stored).
    if (LANES == 1) {
      for (uint blk = kb / 32 + lid; blk < ke / 32; blk += wg) {
        [[unroll]] for (uint r = 0; r < ROWS; ++r) add_block(z, r, min(n0 + r, p.N - 1), blk);
      }
    } else {
      // Each invocation keeps one part (WG is a multiple of LANES) and steps WG / LANES blocks.
      uint row_byte[ROWS], a_row[M_ROWS];
      [[unroll]] for (uint r = 0; r < ROWS; ++r)
        row_byte[r] = (index_op_b(z, 0, min(n0 + r, p.N - 1)) / 32) * BLOCK_BYTES;
      [[unroll]] for (uint i = 0; i < M_ROWS; ++i) a_row[i] = index_op_a(z, i, 0);
      // AHEAD blocks a step, every one's words loaded before any is decoded, so more of B is in flight at once;
      // steps past the range load its last block again and add nothing.
      const uint stride = wg / LANES, end = ke / 32;
      for (uint blk = kb / 32 + lid / LANES; blk < end; blk += AHEAD * stride) {
        [[unroll]] for (uint u = 0; u < AHEAD; ++u) load_part(row_byte, min(blk + u * stride, end - 1), lid % LANES, u);
        [[unroll]] for (uint u = 0; u < AHEAD; ++u) {
          if (blk + u * stride < end) add_part(u, a_row, blk + u * stride, lid % LANES);
        }
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
  // Output t of the workgroup's ROWS x GROUPS x M_ROWS: group t / (ROWS x M_ROWS)'s subgroups, in order.
  const uint per_group = gl_NumSubgroups / GROUPS;
  for (uint t = gl_LocalInvocationID.x; t < GROUPS * ROWS * M_ROWS; t += gl_WorkGroupSize.x) {
    const uint g0 = (t / (ROWS * M_ROWS)) * per_group, u = t % (ROWS * M_ROWS);
    const uint n = n_wg + t / M_ROWS, i = t % M_ROWS;
    if (n >= p.N) continue;
    precise float sum = sums[g0 * ROWS * M_ROWS + u];
    for (uint g = 1; g < per_group; ++g) sum = sum + sums[(g0 + g) * ROWS * M_ROWS + u];
    if (SPLIT == 1) {
      c_data[c_index(z, i, n)] = finish(sum, z, i, n);
    } else {
      planes[scratch_index(z, range, i, n)] = sum;
    }
  }
  if (SPLIT == 1) return;

  const uint counter = z * ((p.N + ROWS * GROUPS - 1) / (ROWS * GROUPS)) + block;
  if (!split_last_to_arrive(counter)) return;
  for (uint t = gl_LocalInvocationID.x; t < GROUPS * ROWS * M_ROWS; t += gl_WorkGroupSize.x) {
    const uint n = n_wg + t / M_ROWS, i = t % M_ROWS;
    if (n < p.N) c_data[c_index(z, i, n)] = finish(split_planes_sum(z, i, n), z, i, n);
  }
  split_reset_arrivals(counter);
}
