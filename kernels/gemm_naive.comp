#version 450
// gemm_naive: the textbook baseline every tune is measured against. One invocation computes one element of C
// by walking the whole of k, reading op(A) and op(B) straight from global memory: no tiling, no shared memory,
// no reuse beyond what the caches give. Neighbouring invocations own neighbouring columns of one row, so reads
// of B (stored K x N) and writes of C are coalesced; reads of A are the same address across the workgroup.
// Terms are chained in increasing k, so the result is deterministic.
//
// Tuned specialization constants (id: meaning):   0: workgroup size (columns per workgroup)

#extension GL_GOOGLE_include_directive : enable

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;

#include "common/gemm_common.glsl"

void main() {
  const uint j = (gl_WorkGroupID.x + p.base_x) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  const uint i = gl_WorkGroupID.y + p.base_y;
  const uint z = gl_WorkGroupID.z + p.base_z;
  if (j >= p.N || i >= p.M) return;
  float sum = 0.0;
  if (p.alpha != 0.0) {
    for (uint kk = 0; kk < p.K; ++kk) sum = fma(load_op_a(z, i, kk), load_op_b(z, kk, j), sum);
  }
  c_data[c_index(z, i, j)] = finish(sum, z, i, j);
}
