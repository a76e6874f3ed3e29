#version 450
// gemm_fewrows: products with at most 8 rows of op(A) (decoding tokens), A not transposed; streams B once.
// A workgroup owns COLS columns of C for every row; its COLS * SLICES invocations split k into SLICES
// interleaved slices (invocation slice s takes k = s, s + SLICES, ...). Each invocation chains its terms in
// increasing k for every row; then the slice-0 invocation of a column adds the slice sums in slice order through
// shared memory and applies the epilogue. Consecutive invocations read consecutive addresses of B: neighbouring
// columns for B stored K x N, neighbouring k for B stored N x K (TRANS_B).
//
// Tuned specialization constants (id: meaning):
//   0: workgroup size, must equal COLS * SLICES   1: COLS, columns per workgroup   2: SLICES, k slices

#extension GL_EXT_control_flow_attributes : enable
#extension GL_GOOGLE_include_directive : enable

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint COLS = 32;
layout(constant_id = 2) const uint SLICES = 8;

#include "common/gemm_common.glsl"

const uint MAX_ROWS = 8;
shared float partial[SLICES * COLS * MAX_ROWS];

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint c = TRANS_B ? lid / SLICES : lid % COLS;
  const uint s = TRANS_B ? lid % SLICES : lid / COLS;
  const uint col = (gl_WorkGroupID.x + p.base_x) * COLS + c;
  const uint z = gl_WorkGroupID.z + p.base_z;

  float acc[MAX_ROWS];
  [[unroll]] for (uint i = 0; i < MAX_ROWS; ++i) acc[i] = 0.0;
  if (p.alpha != 0.0 && col < p.N) {
    for (uint k = s; k < p.K; k += SLICES) {
      const float b = load_op_b(z, k, col);
      [[unroll]] for (uint i = 0; i < MAX_ROWS; ++i) {
        if (i < p.M) acc[i] = fma(load_op_a(z, i, k), b, acc[i]);
      }
    }
  }
  [[unroll]] for (uint i = 0; i < MAX_ROWS; ++i) partial[(s * COLS + c) * MAX_ROWS + i] = acc[i];
  barrier();
  if (s != 0 || col >= p.N) return;
  for (uint i = 0; i < p.M; ++i) {
    precise float sum = partial[c * MAX_ROWS + i];
    for (uint t = 1; t < SLICES; ++t) sum = sum + partial[(t * COLS + c) * MAX_ROWS + i];
    c_data[c_index(z, i, col)] = finish(sum, z, i, col);
  }
}
