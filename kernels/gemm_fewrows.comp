#version 450
// gemm_fewrows: products with at most 8 rows of op(A) (decoding tokens), B stored K x N; streams B once. op(A)
// may be transposed: its M x K values are few and stay in the caches (B stored N x K goes to gemm_rowdot.comp).
// A workgroup owns COLS * VEC columns of C for every row; its COLS * SLICES invocations split k into SLICES
// interleaved slices (invocation slice s takes k = s, s + SLICES, ...), and each invocation owns VEC
// consecutive columns. Each invocation chains its terms in increasing k for every row and column; then the
// slice-0 invocation of a column group adds the slice sums in slice order through shared memory and applies the
// epilogue. Consecutive invocations read consecutive addresses of B: neighbouring column groups for B stored
// K x N, neighbouring k for B stored N x K (TRANS_B).
//
// Each trip of the k loop issues UNROLL loads of B before any of their multiplies, so that many loads are in
// flight per invocation: a streaming kernel is bound by the bytes in flight, not by arithmetic. With B stored
// K x N in 16-byte-aligned rows, a group of VEC columns is one vector load (f32: VEC / 4 vec4s; 16-bit: a
// uvec2 for 4, a uvec4 for 8), so each load instruction moves 16 bytes instead of 2 or 4; in rows that are not
// aligned (odd N) the group comes from the one or two more aligned 16-byte loads that cover it; at edges and
// with TRANS_B the VEC columns load one by one. Neither UNROLL nor VEC changes the summation order,
// so neither changes the result.
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

// Problem constant 31: M_ROWS, the rows of op(A) (the problem's M; the family serves at most 8), so that the
// accumulators and the slice sums in shared memory are sized by M, not by the most the kernel serves.
layout(constant_id = 31) const uint M_ROWS = 1;
shared float partial[SLICES * COLS * M_ROWS * VEC];

float b_vals[UNROLL * VEC];  // the B values of one loop trip

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
const uint GROUPS = (VEC + W - 1) / W + 1;  // 16-byte loads that cover VEC elements at any shift

// Rows of B that do not start on 16-byte boundaries (odd N): the VEC elements at buffer index idx taken from the
// GROUPS aligned 16-byte loads that cover them. The shift idx % W is the same for every group of a row when VEC
// is a multiple of W, so the switch does not diverge there; each case extracts with constant indices.
#define TAKE_SHIFTED(SH) [[unroll]] for (uint e = 0; e < VEC; ++e) b_vals[at + e] = group_elem(g[(SH + e) / W], (SH + e) % W);
void load_b_shifted(uint idx, uint at) {
  GROUP g[GROUPS];
  [[unroll]] for (uint q = 0; q < GROUPS; ++q) g[q] = load_group(idx / W + q);
  switch (idx % W) {
    case 0u: TAKE_SHIFTED(0u) break;
    case 1u: TAKE_SHIFTED(1u) break;
    case 2u: TAKE_SHIFTED(2u) break;
    case 3u: TAKE_SHIFTED(3u) break;
#if !defined(INPUT_F32)
    case 4u: TAKE_SHIFTED(4u) break;
    case 5u: TAKE_SHIFTED(5u) break;
    case 6u: TAKE_SHIFTED(6u) break;
    case 7u: TAKE_SHIFTED(7u) break;
#endif
  }
}

// The VEC elements of B at (z, kk, col0 .. col0 + VEC - 1) into b_vals[at .. at + VEC - 1]; `whole`: one aligned
// run inside the matrix (the caller checked); `shifted`: a run inside the matrix in rows not 16-byte aligned,
// taken from aligned 16-byte loads where they stay inside this product's B; else element by element with the
// columns past N as zero.
void load_b_group(uint z, uint kk, uint col0, bool whole, bool shifted, uint at) {
  if (shifted) {
    const uint idx = index_op_b(z, kk, col0);
    const uint last = index_op_b(z, p.K - 1, p.N - 1);  // the loads may not pass this product's last element
    if ((idx / W + GROUPS) * W - 1 <= last) {
      load_b_shifted(idx, at);
      return;
    }
  }
  if (whole) {
    const uint idx = index_op_b(z, kk, col0);
#if defined(INPUT_F32)
    [[unroll]] for (uint q = 0; q < VEC / 4; ++q) {
      const vec4 x = b_vec4[idx / 4 + q];
      [[unroll]] for (uint e = 0; e < 4; ++e) b_vals[at + 4 * q + e] = x[e];
    }
#else
    if (VEC == 4) {
      const uvec2 w = b_u2[idx / 4];
      [[unroll]] for (uint e = 0; e < 4; ++e) b_vals[at + e] = decode16(w[e / 2], e);
    } else {
      [[unroll]] for (uint q = 0; q < VEC / 8; ++q) {
        const uvec4 w = b_u4[idx / 8 + q];
        [[unroll]] for (uint e = 0; e < 8; ++e) b_vals[at + 8 * q + e] = decode16(w[e / 2], e);
      }
    }
#endif
  } else {
    [[unroll]] for (uint e = 0; e < VEC; ++e) b_vals[at + e] = col0 + e < p.N ? load_op_b(z, kk, col0 + e) : 0.0;
  }
}

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint c = TRANS_B ? lid / SLICES : lid % COLS;
  const uint s = TRANS_B ? lid % SLICES : lid / COLS;
  const uint col0 = ((gl_WorkGroupID.x + p.base_x) * COLS + c) * VEC;
  const uint z = gl_WorkGroupID.z + p.base_z;
  const bool whole = VEC > 1 && ALIGNED_B && !TRANS_B && col0 + VEC <= p.N;
  const bool shifted = VEC > 1 && !ALIGNED_B && !TRANS_B && col0 + VEC <= p.N;

  float acc[M_ROWS * VEC];
  [[unroll]] for (uint i = 0; i < M_ROWS * VEC; ++i) acc[i] = 0.0;
  if (p.alpha != 0.0 && col0 < p.N) {
    uint k = s;
    for (; k + (UNROLL - 1) * SLICES < p.K; k += UNROLL * SLICES) {
      [[unroll]] for (uint u = 0; u < UNROLL; ++u) load_b_group(z, k + u * SLICES, col0, whole, shifted, u * VEC);
      [[unroll]] for (uint u = 0; u < UNROLL; ++u) {
        [[unroll]] for (uint i = 0; i < M_ROWS; ++i) {
          const float a = load_op_a(z, i, k + u * SLICES);
          [[unroll]] for (uint e = 0; e < VEC; ++e) acc[i * VEC + e] = fma(a, b_vals[u * VEC + e], acc[i * VEC + e]);
        }
      }
    }
    for (; k < p.K; k += SLICES) {
      load_b_group(z, k, col0, whole, shifted, 0u);
      [[unroll]] for (uint i = 0; i < M_ROWS; ++i) {
        const float a = load_op_a(z, i, k);
        [[unroll]] for (uint e = 0; e < VEC; ++e) acc[i * VEC + e] = fma(a, b_vals[e], acc[i * VEC + e]);
      }
    }
  }
  [[unroll]] for (uint i = 0; i < M_ROWS * VEC; ++i) partial[(s * COLS + c) * M_ROWS * VEC + i] = acc[i];
  barrier();
  if (s != 0 || col0 >= p.N) return;
  for (uint i = 0; i < M_ROWS; ++i) {
    for (uint e = 0; e < VEC && col0 + e < p.N; ++e) {
      precise float sum = partial[c * M_ROWS * VEC + i * VEC + e];
      for (uint t = 1; t < SLICES; ++t) sum = sum + partial[(t * COLS + c) * M_ROWS * VEC + i * VEC + e];
      c_data[c_index(z, i, col0 + e)] = finish(sum, z, i, col0 + e);
    }
  }
}
