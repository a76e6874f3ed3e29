#version 450
// Runs common/bf16_split.glsl's split8 on lavapipe (tests/gpu/test_bf16_split.cpp): groups of 8 f32 values in, their
// three part vectors out, as gemm_bf16x6.comp stores them into its part tiles.
#extension GL_EXT_control_flow_attributes : enable
#extension GL_GOOGLE_include_directive : enable
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uvec4 values[]; };  // 2 vectors a group
layout(std430, binding = 1) writeonly buffer Out { uvec4 parts[]; };  // 3 vectors a group: hi, mid, lo
layout(push_constant) uniform Params { uint groups; } p;
#include "common/bf16_split.glsl"

void main() {
  const uint g = gl_GlobalInvocationID.x;
  if (g >= p.groups) return;
  uvec4 p0, p1, p2;
  split8(values[2 * g], values[2 * g + 1], p0, p1, p2);
  parts[3 * g] = p0;
  parts[3 * g + 1] = p1;
  parts[3 * g + 2] = p2;
}
