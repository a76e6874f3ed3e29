#version 450
// splitk_reduce_int: the second pass of split-k for 8-bit integer inputs. For each element of C, adds the SPLIT
// planes of int32 partial sums (gemm_tiled_int.comp with SPLIT > 1) in int32 arithmetic, which wraps like the
// one-pass sum, so C is the same bits. No epilogue (integer problems have none). One invocation per element; a
// 16 x 16 workgroup per 16 x 16 block of C; z is the product.

#extension GL_GOOGLE_include_directive : enable

layout(local_size_x = 16, local_size_y = 16, local_size_z = 1) in;

#define INTEGER_OPERANDS 1
#include "common/gemm_common.glsl"
layout(std430, binding = 2) writeonly buffer BufCInt { int c_int[]; };
layout(std430, binding = 4) readonly buffer BufScratchInt { int scratch_int[]; };

void main() {
  const uint j = (gl_WorkGroupID.x + p.base_x) * 16 + gl_LocalInvocationID.x;
  const uint i = (gl_WorkGroupID.y + p.base_y) * 16 + gl_LocalInvocationID.y;
  const uint z = gl_WorkGroupID.z + p.base_z;
  if (i >= p.M || j >= p.N) return;
  int sum = scratch_int[scratch_index(z, 0, i, j)];
  for (uint s = 1; s < SPLIT; ++s) sum += scratch_int[scratch_index(z, s, i, j)];
  c_int[c_index(z, i, j)] = sum;
}
