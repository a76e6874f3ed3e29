#version 450
// gemm_fewrows: products with at most 8 rows of op(A) (decoding tokens), B stored K x N; streams B once. op(A) may be
// transposed: its M x K values are few and stay in the caches (B stored N x K goes to gemm_rowdot.comp). A workgroup
// owns COLS * VEC columns of C for every row (less the overlap below); its COLS * SLICES invocations split k into
// SLICES interleaved slices (invocation slice s takes k = s, s + SLICES, ...), and each invocation owns VEC consecutive
// columns. Each invocation chains its terms in increasing k for every row and column; then the workgroup's invocations,
// one output each at a time, add the slice sums in slice order through shared memory and apply the epilogue.
// Consecutive invocations read consecutive addresses of B: neighbouring column groups for B stored K x N, neighbouring
// k for B stored N x K (TRANS_B).
//
// Each trip of the k loop issues UNROLL loads of B before any of their multiplies, so that many loads are in
// flight per invocation: a streaming kernel is bound by the bytes in flight, not by arithmetic. With B stored
// K x N in 16-byte-aligned rows, a group of VEC columns is one vector load (f32: VEC / 4 vec4s; 16-bit: a
// uvec2 for 4, a uvec4 for 8), so each load instruction moves 16 bytes instead of 2 or 4. Rows that are not
// aligned (odd N) are read in aligned units too: an invocation's VEC values start at the aligned element at or
// before its columns, `shift` columns early, and the workgroup's columns overlap the next workgroup's by the
// UNIT - 1 columns that the shift can cost (WIDTH); the shift is the same for all of an invocation's rows when
// SLICES x ldb is a multiple of UNIT (src/kernels/fewrows.cpp requires it), so each value still belongs to one
// column, and the slice sums are gathered by column at the end. At the matrix's last elements and with TRANS_B
// the VEC columns load one by one. Neither UNROLL nor VEC changes the summation order, so neither changes the
// result.
//
// Split-k in one pass (problem constant 25: SPLIT > 1), for problems whose columns alone give too few workgroups
// (51865 columns in groups of 8 x 64 fill 102 of an H200's 132 SMs): workgroup x covers the columns of tile
// x / SPLIT over k range x % SPLIT (p.k_split terms, a multiple of 32, so every slice's shift is that of its first
// row). Each workgroup writes its range's sums to the scratch planes and counts its arrival on the tile (binding
// 5, counters at zero before the run); the last workgroup of a tile to arrive adds the planes in range order
// (the bits depend only on the config), applies the epilogue and sets the count back to zero for the next run.
//
// Tuned specialization constants (id: meaning):
//   0: workgroup size, must equal COLS * SLICES   1: COLS, column groups per workgroup   2: SLICES, k slices
//   3: UNROLL, k terms per loop trip   4: VEC, consecutive columns per invocation (1, 4 or 8)

#extension GL_EXT_control_flow_attributes : enable
#extension GL_GOOGLE_include_directive : enable

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint COLS = 32;
layout(constant_id = 2) const uint SLICES = 8;
layout(constant_id = 3) const uint UNROLL = 1;
layout(constant_id = 4) const uint VEC = 1;

#include "common/gemm_common.glsl"

#if !defined(INPUT_F32)
// B as 4 (8-byte) and 8 (16-byte) 16-bit elements at once, for aligned rows.
layout(std430, binding = 1) readonly buffer BufB2 { uvec2 b_u2[]; };
layout(std430, binding = 1) readonly buffer BufB4 { uvec4 b_u4[]; };
#endif

#include "common/split_one_pass.glsl"

// Problem constant 31: M_ROWS, the rows of op(A) (the problem's M; the family serves at most 8), so that the
// accumulators and the slice sums in shared memory are sized by M, not by the most the kernel serves.
layout(constant_id = 31) const uint M_ROWS = 1;
shared float partial[SLICES * COLS * M_ROWS * VEC];

// The B values of one loop trip: value j of the trip is b_at(j). 16-bit values stay as loaded, two a word (value j
// in word j / 2, low half first), decoded at their multiply: a 16-byte load holds 4 registers, not 8, so a trip of
// 8 loads fits where 4 did (the bytes in flight an SM are what 16-bit streaming is bound by: results/h200/notes.md,
// issue 18 step 20).
#if defined(INPUT_F32)
float b_vals[UNROLL * VEC];
float b_at(uint j) { return b_vals[j]; }
#else
uint b_words[(UNROLL * VEC + 1) / 2];
float b_at(uint j) { return decode16(b_words[j / 2], j); }
/// Stores the 16 bits of value j (the other half of its word kept when j is odd; an even j comes first).
void put_bits(uint j, uint bits) { b_words[j / 2] = (j & 1u) == 0u ? bits : (b_words[j / 2] & 0xffffu) | (bits << 16); }
#endif

#if defined(INPUT_F32)
const uint W = 4;  // elements per 16-byte word group
#define GROUP vec4
GROUP load_group(uint g) { return b_vec4[g]; }
float group_elem(GROUP x, uint e) { return x[e]; }
#else
const uint W = 8;
#define GROUP uvec4
GROUP load_group(uint g) { return b_u4[g]; }
float group_elem(GROUP x, uint e) { return decode16(x[e / 2], e); }
#endif
// Aligned units: rows that are not 16-byte aligned (odd N) are read from the aligned element at or before an
// invocation's columns, UNIT elements at a time (f32: a vec4; 16-bit: VEC elements, one uvec2 or uvec4).
const bool UNITS = VEC > 1 && !ALIGNED_B && !TRANS_B;
const uint UNIT = UNITS ? (VEC < W ? VEC : W) : 1;
// Columns a workgroup owns: its invocations cover COLS * VEC from `shift` (< UNIT) columns before its first.
const uint WIDTH = COLS * VEC - (UNIT - 1);

// The VEC elements of B in row kk from column col0 - shift on into trip values at .. at + VEC - 1; `whole`: one
// aligned run inside the matrix (the caller checked, shift 0); with UNITS an aligned run wherever it stays inside
// this product's B (its values past column N - 1 or before column 0 are other rows', never summed into a written
// column); else element by element with the columns outside 0 .. N - 1 as zero.
void load_b_group(uint z, uint kk, uint col0, uint shift, bool whole, uint at) {
  const uint idx = index_op_b(z, kk, col0) - shift;
  if (UNITS) whole = idx + VEC - 1 <= index_op_b(z, p.K - 1, p.N - 1);
  if (whole) {
#if defined(INPUT_F32)
    [[unroll]] for (uint q = 0; q < VEC / 4; ++q) {
      const vec4 x = b_vec4[idx / 4 + q];
      [[unroll]] for (uint e = 0; e < 4; ++e) b_vals[at + 4 * q + e] = x[e];
    }
#else
    // at is a multiple of VEC (4 or 8 here), so the words start at at / 2.
    if (VEC == 4) {
      const uvec2 w = b_u2[idx / 4];
      [[unroll]] for (uint q = 0; q < 2; ++q) b_words[at / 2 + q] = w[q];
    } else {
      [[unroll]] for (uint q = 0; q < VEC / 8; ++q) {
        const uvec4 w = b_u4[idx / 8 + q];
        [[unroll]] for (uint e = 0; e < 4; ++e) b_words[at / 2 + 4 * q + e] = w[e];
      }
    }
#endif
  } else {
    [[unroll]] for (uint e = 0; e < VEC; ++e) {
      const int col = int(col0) - int(shift) + int(e);
      const bool inside = col >= 0 && col < int(p.N);
#if defined(INPUT_F32)
      b_vals[at + e] = inside ? load_op_b(z, kk, uint(col)) : 0.0;
#else
      const uint i = inside ? index_op_b(z, kk, uint(col)) : 0u;
      put_bits(at + e, inside ? (b_data[i >> 1] >> ((i & 1u) * 16u)) & 0xffffu : 0u);  // 0: +0.0 in f16 and bf16
#endif
    }
  }
}

/// The shift of slice s's rows (UNITS): how far before column col0 the aligned unit holding it starts. The same
/// in all the rows the slice reads (k = s, s + SLICES, ...), given SLICES x ldb a multiple of UNIT.
uint shift_of(uint z, uint s, uint col0) { return UNITS ? index_op_b(z, s, col0) % UNIT : 0u; }

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint c = TRANS_B ? lid / SLICES : lid % COLS;
  const uint s = TRANS_B ? lid % SLICES : lid / COLS;
  const uint tile = (gl_WorkGroupID.x + p.base_x) / SPLIT, range = (gl_WorkGroupID.x + p.base_x) % SPLIT;
  const uint k_begin = range * p.k_split, k_end = min(p.K, k_begin + p.k_split);
  const uint group0 = tile * WIDTH;  // the workgroup's first column
  const uint col0 = group0 + c * VEC;  // this invocation's values start at column col0 - shift
  const uint z = gl_WorkGroupID.z + p.base_z;
  const bool whole = VEC > 1 && ALIGNED_B && !TRANS_B && col0 + VEC <= p.N;
  const uint shift = shift_of(z, k_begin + s, group0);

  float acc[M_ROWS * VEC];
  [[unroll]] for (uint i = 0; i < M_ROWS * VEC; ++i) acc[i] = 0.0;
  if (p.alpha != 0.0 && int(col0) - int(shift) < int(p.N)) {
    uint k = k_begin + s;
    for (; k + (UNROLL - 1) * SLICES < k_end; k += UNROLL * SLICES) {
      [[unroll]] for (uint u = 0; u < UNROLL; ++u) load_b_group(z, k + u * SLICES, col0, shift, whole, u * VEC);
      [[unroll]] for (uint u = 0; u < UNROLL; ++u) {
        [[unroll]] for (uint i = 0; i < M_ROWS; ++i) {
          const float a = load_op_a(z, i, k + u * SLICES);
          [[unroll]] for (uint e = 0; e < VEC; ++e) acc[i * VEC + e] = fma(a, b_at(u * VEC + e), acc[i * VEC + e]);
        }
      }
    }
#if defined(FAULT_DROP_UNROLL_TAIL)  // planted fault (tests/gpu/test_planted_faults.cpp): the unroll tail dropped
    k = k_end;
#endif
    for (; k < k_end; k += SLICES) {
      load_b_group(z, k, col0, shift, whole, 0u);
      [[unroll]] for (uint i = 0; i < M_ROWS; ++i) {
        const float a = load_op_a(z, i, k);
        [[unroll]] for (uint e = 0; e < VEC; ++e) acc[i * VEC + e] = fma(a, b_at(e), acc[i * VEC + e]);
      }
    }
  }
  [[unroll]] for (uint i = 0; i < M_ROWS * VEC; ++i) partial[(s * COLS + c) * M_ROWS * VEC + i] = acc[i];
  barrier();
  // Every invocation adds up outputs, one at a time, neighbours writing neighbouring columns (a short k leaves
  // the sums a large share of the time: at K = 768 a slice holds 24-96 terms). Slice t holds column group0 + q
  // as value (q + shift_t) % VEC of its invocation (q + shift_t) / VEC; the slices are added in slice order.
  for (uint o = lid; o < M_ROWS * WIDTH; o += gl_WorkGroupSize.x) {
    const uint i = o / WIDTH, q = o % WIDTH;
    if (group0 + q >= p.N) continue;
    precise float sum = 0.0;
#if defined(FAULT_DROP_LAST_SLICE)  // planted fault: the last slice's sums dropped
    for (uint t = 0; t < SLICES - 1; ++t) {
#else
    for (uint t = 0; t < SLICES; ++t) {
#endif
      const uint at = q + shift_of(z, k_begin + t, group0);
      const float v = partial[(t * COLS + at / VEC) * M_ROWS * VEC + i * VEC + at % VEC];
      sum = t == 0 ? v : sum + v;
    }
    if (SPLIT == 1) {
      c_data[c_index(z, i, group0 + q)] = finish(sum, z, i, group0 + q);
    } else {
      planes[scratch_index(z, range, i, group0 + q)] = sum;
    }
  }
  if (SPLIT == 1) return;

  // The workgroup that brings the tile's count to SPLIT finishes it.
  const uint counter = z * ((p.N + WIDTH - 1) / WIDTH) + tile;
  if (!split_last_to_arrive(counter)) return;
  for (uint o = lid; o < M_ROWS * WIDTH; o += gl_WorkGroupSize.x) {
    const uint i = o / WIDTH, q = o % WIDTH;
    if (group0 + q < p.N)
      c_data[c_index(z, i, group0 + q)] = finish(split_planes_sum(z, i, group0 + q), z, i, group0 + q);
  }
  split_reset_arrivals(counter);
}
