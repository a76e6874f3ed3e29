#version 450
// Runs common/quant_halves.glsl's lane_halves on lavapipe (tests/gpu/test_quant_halves.cpp): per block and lane t
// (0..3), the scale word and the lane's code words in, its 8 halves and what their rounding left out, as
// gemm_qrowmma.comp puts them in its fragments. Built for q8_0 (INPUT_Q8) and q4_0 (INPUT_Q4).
#extension GL_GOOGLE_include_directive : enable
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#if defined(INPUT_Q8)
#define B_Q8 1
#endif
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uvec4 words[]; };  // scale word, code words, unused
layout(std430, binding = 1) writeonly buffer Out { uvec4 values[]; };  // per lane: hi, then lo
layout(push_constant) uniform Params { uint lanes; } p;
#include "common/quant_halves.glsl"

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= p.lanes) return;
  const uvec4 w = words[i];
  uvec4 lo;
  values[2 * i] = lane_halves(w.x, w.y, w.z, lo);
  values[2 * i + 1] = lo;
}
