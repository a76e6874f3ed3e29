#version 450
// peak_coopmat: the matrix units' f16 x f16 -> f32 rate through VK_KHR_cooperative_matrix, 16 x 16 x 16
// fragments, subgroups of 32, no memory traffic in the loop. Each subgroup keeps 8 independent accumulators
// (2 A x 4 B fragments) so that consecutive multiplies never wait on each other, then stores their sum so
// nothing can be folded away; the fragments' values come from push constants.
// FLOP per dispatch = subgroups * ITERATIONS * 8 * 2 * 16 * 16 * 16.
//   0: workgroup size (a multiple of 32)   1: ITERATIONS

#extension GL_EXT_control_flow_attributes : enable
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_KHR_shader_subgroup_basic : require

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint ITERATIONS = 1024;

layout(push_constant) uniform Params {
  float a;
  float b;
} p;

layout(std430, binding = 0) writeonly buffer Out { float out_data[]; };

void main() {
  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> a[2];
  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> b[4];
  coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> acc[8];
  [[unroll]] for (uint i = 0; i < 2; ++i) {
    a[i] = coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA>(float16_t(p.a * float(i + 1)));
  }
  [[unroll]] for (uint j = 0; j < 4; ++j) {
    b[j] = coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB>(float16_t(p.b * float(j + 1)));
  }
  [[unroll]] for (uint f = 0; f < 8; ++f) {
    acc[f] = coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
  }
  for (uint it = 0; it < ITERATIONS; ++it) {
    [[unroll]] for (uint f = 0; f < 8; ++f) acc[f] = coopMatMulAdd(a[f / 4], b[f % 4], acc[f]);
  }
  [[unroll]] for (uint f = 1; f < 8; ++f) acc[0] = acc[0] + acc[f];
  const uint subgroup = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_NumSubgroups + gl_SubgroupID;
  coopMatStore(acc[0], out_data, subgroup * 256, 16, gl_CooperativeMatrixLayoutRowMajor);
}
