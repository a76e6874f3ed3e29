#version 450
// probe_fragments: which elements of a 16 x 16 f16 cooperative matrix each invocation of a subgroup of 32 holds,
// for the A and B uses (VK_KHR_cooperative_matrix leaves it to the driver). The input is a row-major 16 x 16 matrix
// of distinct bit patterns (0x3C00 | 16 row + column); invocation l writes the low 16 bits of its element i of the
// A fragment to out[l * 8 + i] and of the B fragment to out[256 + l * 8 + i] (elements beyond its length: none).
// out[512] = the A fragment's length per invocation, out[513] the B fragment's. gemm_rowmma.comp's REGS path
// assumes one layout and checks it in the kernel; tests/gpu/test_rowmma.cpp prints what this probe reads.

#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 32, local_size_y = 1, local_size_z = 1) in;
layout(std430, binding = 0) readonly buffer In { uvec4 in_data[]; };
layout(std430, binding = 1) writeonly buffer Out { uint out_data[]; };

void main() {
  const uint lane = gl_LocalInvocationID.x;
  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> a;
  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> b;
  coopMatLoad(a, in_data, 0, 2, gl_CooperativeMatrixLayoutRowMajor);
  coopMatLoad(b, in_data, 0, 2, gl_CooperativeMatrixLayoutRowMajor);
  for (int i = 0; i < a.length(); ++i) out_data[lane * 8 + i] = packFloat2x16(f16vec2(a[i], a[i])) & 0xFFFFu;
  for (int i = 0; i < b.length(); ++i) out_data[256 + lane * 8 + i] = packFloat2x16(f16vec2(b[i], b[i])) & 0xFFFFu;
  if (lane == 0) {
    out_data[512] = uint(a.length());
    out_data[513] = uint(b.length());
  }
}
