#version 450
// peak_fma: the device's f32 FMA rate. Every invocation runs 8 independent chains x = fma(x, m, c) for
// ITERATIONS steps (16 FLOP per step) and writes their sum, so nothing can be folded away: m and c come from
// push constants. FLOP per dispatch = invocations * ITERATIONS * 16.
//   0: workgroup size   1: ITERATIONS

#extension GL_EXT_control_flow_attributes : enable

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint ITERATIONS = 1024;

layout(push_constant) uniform Params {
  float m;
  float c;
} p;

layout(std430, binding = 0) writeonly buffer Out { float out_data[]; };

void main() {
  const uint gid = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  float x[8];
  [[unroll]] for (uint i = 0; i < 8; ++i) x[i] = float(gid & 1023u) * 1e-3 + float(i);
  for (uint it = 0; it < ITERATIONS; ++it) {
    [[unroll]] for (uint i = 0; i < 8; ++i) x[i] = fma(x[i], p.m, p.c);
  }
  float sum = 0.0;
  [[unroll]] for (uint i = 0; i < 8; ++i) sum += x[i];
  out_data[gid] = sum;
}
