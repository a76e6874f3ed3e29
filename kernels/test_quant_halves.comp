#version 450
// Runs common/quant_halves.glsl's lane_codes on lavapipe (tests/gpu/test_quant_halves.cpp): per block and lane t
// (0..3), the lane's code words in, its 8 codes as halves out, as gemm_qrowmma.comp puts them in its fragments.
// Built for q8_0 (INPUT_Q8) and q4_0 (INPUT_Q4).
#extension GL_GOOGLE_include_directive : enable
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#if defined(INPUT_Q8)
#define B_Q8 1
#endif
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uvec2 words[]; };  // code words
layout(std430, binding = 1) writeonly buffer Out { uvec4 values[]; };  // per lane: 8 halves
layout(push_constant) uniform Params { uint lanes; } p;
#include "common/quant_halves.glsl"

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= p.lanes) return;
  const uvec2 w = words[i];
  values[i] = lane_codes(w.x, w.y);
}
