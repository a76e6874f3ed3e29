#version 450
// gemm_naive_int: the textbook baseline for 8-bit integer inputs (see gemm_naive.comp): one invocation per
// element of C walks the whole of k in global memory, C = sum of (A - ZERO_A) * (B - ZERO_B) in wrapping int32.
// Built per input type: INPUT_I8, INPUT_U8, INPUT_U8I8.
//
// Tuned specialization constants (id: meaning):   0: workgroup size (columns per workgroup)
// Problem constants 28 and 29 are the zero points.

#extension GL_GOOGLE_include_directive : enable

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 28) const int ZERO_A = 0;
layout(constant_id = 29) const int ZERO_B = 0;

#define INTEGER_OPERANDS 1
layout(std430, binding = 0) readonly buffer BufA { uint a_words[]; };
layout(std430, binding = 1) readonly buffer BufB { uint b_words[]; };
#include "common/gemm_common.glsl"
layout(std430, binding = 2) writeonly buffer BufCInt { int c_int[]; };

#include "common/int8.glsl"

void main() {
  const uint j = (gl_WorkGroupID.x + p.base_x) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  const uint i = gl_WorkGroupID.y + p.base_y;
  const uint z = gl_WorkGroupID.z + p.base_z;
  if (j >= p.N || i >= p.M) return;
  int sum = 0;
  for (uint kk = 0; kk < p.K; ++kk) {
    const uint ia = index_op_a(z, i, kk), ib = index_op_b(z, kk, j);
    sum +=
        (byte_value(a_words[ia >> 2], ia, A_SIGNED) - ZERO_A) * (byte_value(b_words[ib >> 2], ib, B_SIGNED) - ZERO_B);
  }
  c_int[c_index(z, i, j)] = sum;
}
