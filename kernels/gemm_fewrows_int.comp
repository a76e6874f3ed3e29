#version 450
// gemm_fewrows_int: the few-rows family for 8-bit integer inputs (see gemm_fewrows.comp for the float form): at most 16
// rows of op(A) (A as stored either way: it is small), B streamed once. C[i][j] = sum over k of (A[i][k] - ZERO_A) *
// (B[k][j] - ZERO_B) in wrapping int32 arithmetic, exact in any order. Built per input type: INPUT_I8, INPUT_U8,
// INPUT_U8I8 (as gemm_tiled_int.comp).
//
// A workgroup owns COLS * VEC columns of C for every row; its COLS * SLICES invocations split k into SLICES
// interleaved slices, each invocation owning VEC consecutive columns. With B stored K x N in 16-byte-aligned
// rows, 4 consecutive 8-bit columns are one 32-bit word, so a group of VEC columns is one load (a word for 4,
// a uvec2 for 8); elsewhere the columns load one by one. Each trip of the k loop issues UNROLL loads of B
// before their multiplies. Slice sums meet in shared memory, 8 rows at a time, so the shared size is the float
// kernel's (the family's one formula).
//
// Tuned specialization constants (id: meaning), as gemm_fewrows.comp:
//   0: workgroup size, must equal COLS * SLICES   1: COLS   2: SLICES   3: UNROLL   4: VEC (1, 4 or 8)
// Problem constants 28 and 29 are the zero points.

#extension GL_EXT_control_flow_attributes : enable
#extension GL_GOOGLE_include_directive : enable

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint COLS = 32;
layout(constant_id = 2) const uint SLICES = 8;
layout(constant_id = 3) const uint UNROLL = 1;
layout(constant_id = 4) const uint VEC = 1;
layout(constant_id = 28) const int ZERO_A = 0;
layout(constant_id = 29) const int ZERO_B = 0;

#define INTEGER_OPERANDS 1
layout(std430, binding = 0) readonly buffer BufA { uint a_words[]; };
layout(std430, binding = 1) readonly buffer BufB { uint b_words[]; };
layout(std430, binding = 1) readonly buffer BufB2 { uvec2 b_u2[]; };
#include "common/gemm_common.glsl"
layout(std430, binding = 2) writeonly buffer BufCInt { int c_int[]; };

#include "common/int8.glsl"

const uint MAX_ROWS = 16;
const uint ROWS_PER_PASS = 8;  // rows whose slice sums share memory at once
shared int partial[SLICES * COLS * ROWS_PER_PASS * VEC];

int b_vals[UNROLL * VEC];  // the B values of one loop trip, zero point subtracted

int a_value(uint z, uint i, uint kk) {
  const uint idx = index_op_a(z, i, kk);
#if defined(FAULT_ZERO_POINT_SIGN)  // planted fault (tests/gpu/test_planted_faults.cpp): A's zero point added
  return byte_value(a_words[idx >> 2], idx, A_SIGNED) + ZERO_A;
#else
  return byte_value(a_words[idx >> 2], idx, A_SIGNED) - ZERO_A;
#endif
}

// The VEC elements of B at (z, kk, col0 .. col0 + VEC - 1) into b_vals[at ..]; `whole`: one aligned run inside
// the matrix (the caller checked), else element by element with the columns past N as zero.
void load_b_group(uint z, uint kk, uint col0, bool whole, uint at) {
  if (whole) {
    const uint idx = index_op_b(z, kk, col0);
    if (VEC == 4) {
      const uint w = b_words[idx / 4];
      [[unroll]] for (uint e = 0; e < 4; ++e) b_vals[at + e] = byte_value(w, e, B_SIGNED) - ZERO_B;
    } else {
      const uvec2 w = b_u2[idx / 8];
      [[unroll]] for (uint e = 0; e < 8; ++e) b_vals[at + e] = byte_value(w[e / 4], e, B_SIGNED) - ZERO_B;
    }
  } else {
    [[unroll]] for (uint e = 0; e < VEC; ++e) {
      int v = 0;
      if (col0 + e < p.N) {
        const uint idx = index_op_b(z, kk, col0 + e);
        v = byte_value(b_words[idx >> 2], idx, B_SIGNED) - ZERO_B;
      }
      b_vals[at + e] = v;
    }
  }
}

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint c = TRANS_B ? lid / SLICES : lid % COLS;
  const uint s = TRANS_B ? lid % SLICES : lid / COLS;
  const uint col0 = ((gl_WorkGroupID.x + p.base_x) * COLS + c) * VEC;
  const uint z = gl_WorkGroupID.z + p.base_z;
  const bool whole = VEC > 1 && ALIGNED_B && !TRANS_B && col0 + VEC <= p.N;

  int acc[MAX_ROWS * VEC];
  [[unroll]] for (uint i = 0; i < MAX_ROWS * VEC; ++i) acc[i] = 0;
  if (col0 < p.N) {
    uint k = s;
    for (; k + (UNROLL - 1) * SLICES < p.K; k += UNROLL * SLICES) {
      [[unroll]] for (uint u = 0; u < UNROLL; ++u) load_b_group(z, k + u * SLICES, col0, whole, u * VEC);
      [[unroll]] for (uint u = 0; u < UNROLL; ++u) {
        [[unroll]] for (uint i = 0; i < MAX_ROWS; ++i) {
          if (i < p.M) {
            const int a = a_value(z, i, k + u * SLICES);
            [[unroll]] for (uint e = 0; e < VEC; ++e) acc[i * VEC + e] += a * b_vals[u * VEC + e];
          }
        }
      }
    }
    for (; k < p.K; k += SLICES) {
      load_b_group(z, k, col0, whole, 0u);
      [[unroll]] for (uint i = 0; i < MAX_ROWS; ++i) {
        if (i < p.M) {
          const int a = a_value(z, i, k);
          [[unroll]] for (uint e = 0; e < VEC; ++e) acc[i * VEC + e] += a * b_vals[e];
        }
      }
    }
  }
  [[unroll]] for (uint pass = 0; pass < MAX_ROWS / ROWS_PER_PASS; ++pass) {
    [[unroll]] for (uint i = 0; i < ROWS_PER_PASS * VEC; ++i) {
      partial[(s * COLS + c) * ROWS_PER_PASS * VEC + i] = acc[pass * ROWS_PER_PASS * VEC + i];
    }
    barrier();
    if (s == 0 && col0 < p.N) {
      for (uint r = 0; r < ROWS_PER_PASS && pass * ROWS_PER_PASS + r < p.M; ++r) {
        for (uint e = 0; e < VEC && col0 + e < p.N; ++e) {
          int sum = 0;
          for (uint t = 0; t < SLICES; ++t) sum += partial[(t * COLS + c) * ROWS_PER_PASS * VEC + r * VEC + e];
          c_int[c_index(z, pass * ROWS_PER_PASS + r, col0 + e)] = sum;
        }
      }
    }
    barrier();
  }
}
