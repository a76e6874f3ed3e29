#version 450
// splitk_reduce: the second pass of split-k. For each element of C, adds the SPLIT planes of raw sums in range
// order (so the bits depend only on the shape and the config), then applies alpha, beta, bias and activation.
// One invocation per element; a 16 x 16 workgroup per 16 x 16 block of C; z is the product.

#extension GL_GOOGLE_include_directive : enable

layout(local_size_x = 16, local_size_y = 16, local_size_z = 1) in;

#include "common/gemm_common.glsl"

void main() {
  const uint j = (gl_WorkGroupID.x + p.base_x) * 16 + gl_LocalInvocationID.x;
  const uint i = (gl_WorkGroupID.y + p.base_y) * 16 + gl_LocalInvocationID.y;
  const uint z = gl_WorkGroupID.z + p.base_z;
  if (i >= p.M || j >= p.N) return;
  precise float sum = scratch_data[scratch_index(z, 0, i, j)];
  for (uint s = 1; s < SPLIT; ++s) sum = sum + scratch_data[scratch_index(z, s, i, j)];
  c_data[c_index(z, i, j)] = finish(sum, z, i, j);
}
