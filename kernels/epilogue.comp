#version 450
// epilogue: the bias add or the activation as a pass of its own over C, in place. Used to check that every
// variant's fused epilogue gives the same bits as separate passes. One invocation per element of C.
//   30: OP (1: C += bias[j], 2: C = activation(C))

#extension GL_GOOGLE_include_directive : enable

layout(local_size_x = 16, local_size_y = 16, local_size_z = 1) in;
layout(constant_id = 30) const uint OP = 1;

#include "common/gemm_common.glsl"

void main() {
  const uint j = (gl_WorkGroupID.x + p.base_x) * 16 + gl_LocalInvocationID.x;
  const uint i = (gl_WorkGroupID.y + p.base_y) * 16 + gl_LocalInvocationID.y;
  const uint z = gl_WorkGroupID.z + p.base_z;
  if (i >= p.M || j >= p.N) return;
  const uint idx = c_index(z, i, j);
  if (OP == 1u) {
    precise float v = c_data[idx] + bias_data[p.off_bias + j];
    c_data[idx] = v;
  } else {
    c_data[idx] = activation(c_data[idx]);
  }
}
