#version 450
// peak_matrix: the matrix units' rate through VK_KHR_cooperative_matrix, 16 x 16 x 16 fragments, subgroups of 32,
// no memory traffic in the loop: each subgroup loads two A and two B fragments from a buffer once, then keeps ACCS
// independent accumulators (f32, or f16 with ACC16) so that consecutive products need not wait on each other, and
// stores their sum so nothing can be folded away. `gemmtune peak --matrix-sweep` runs one module per ACCS (1, 2, 4,
// 8, 16) and accumulator type at several workgroup sizes (issue 21), and with BUILT (peak_matrix_f16_a8_r) the f16 ->
// f32 rate when each A fragment is built from registers. Built with glslang 15 into kernels/prebuilt/
// (peak_matrix_f16_a<ACCS>[_h|_r].spv; the bf16 modules are the f32-sum ones retyped by scripts/spirv_bf16.py).
// FLOP per dispatch = subgroups * ITERATIONS * ACCS * 2 * 16 * 16 * 16.
//   0: workgroup size (a multiple of 32)   1: ITERATIONS

#extension GL_EXT_control_flow_attributes : enable
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_KHR_shader_subgroup_basic : require

#ifndef ACCS
#define ACCS 8
#endif
#ifdef ACC16
#define ACC_T float16_t
#else
#define ACC_T float
#endif

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint ITERATIONS = 256;

layout(std430, binding = 0) readonly buffer In { float16_t in_data[]; };  // 4 fragments of 16 x 16
#ifdef BUILT
layout(std430, binding = 0) readonly buffer InWords { uvec4 in_words[]; };
#endif
layout(std430, binding = 1) writeonly buffer Out { ACC_T out_data[]; };

void main() {
  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> a[2];
  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> b[2];
  coopmat<ACC_T, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> acc[ACCS];
  [[unroll]] for (uint i = 0; i < 2; ++i) {
    coopMatLoad(a[i], in_data, i * 256, 16, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(b[i], in_data, (2 + i) * 256, 16, gl_CooperativeMatrixLayoutRowMajor);
  }
  [[unroll]] for (uint f = 0; f < ACCS; ++f) {
    acc[f] = coopmat<ACC_T, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(ACC_T(0.0));
  }
#ifdef BUILT
  // BUILT: each product's A fragment built from this lane's loaded words, element by element, as gemm_rowmma.comp's
  // register path builds its fragments; the words rotate each iteration so the build cannot leave the loop.
  uvec4 words = in_words[gl_SubgroupInvocationID % 32];
  for (uint it = 0; it < ITERATIONS; ++it) {
    words = words.yzwx;
    [[unroll]] for (uint f = 0; f < ACCS; ++f) {
      coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> built;
      const uvec4 w = (f % 2) == 0 ? words : words.zwxy;
      [[unroll]] for (uint j = 0; j < 4; ++j) {
        const f16vec2 pair = unpackFloat2x16(w[j]);
        built[2 * j] = pair.x;
        built[2 * j + 1] = pair.y;
      }
      acc[f] = coopMatMulAdd(built, b[(f / 2) % 2], acc[f]);
    }
  }
#else
  for (uint it = 0; it < ITERATIONS; ++it) {
    [[unroll]] for (uint f = 0; f < ACCS; ++f) acc[f] = coopMatMulAdd(a[f % 2], b[(f / 2) % 2], acc[f]);
  }
#endif
  [[unroll]] for (uint f = 1; f < ACCS; ++f) acc[0] = acc[0] + acc[f];
  const uint subgroup = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_NumSubgroups + gl_SubgroupID;
  coopMatStore(acc[0], out_data, subgroup * 256, 16, gl_CooperativeMatrixLayoutRowMajor);
}
