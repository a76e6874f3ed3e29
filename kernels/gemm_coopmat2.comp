#version 450
// gemm_coopmat2: GEMM with workgroup-scope cooperative matrices and tensor addressing (VK_NV_cooperative_matrix2).
// The workgroup holds its whole BM x BN f32 accumulator as one matrix and multiplies BM x BK by BK x BN operand
// matrices loaded straight from the operand buffers; the driver stages them through shared memory and chooses
// the per-subgroup split, which with KHR matrices (gemm_coopmat.comp) is ours to write by hand. Written for
// f16; the bf16 SPIR-V is this kernel's with its 16-bit float type retyped (scripts/spirv_bf16.py), sound
// because the kernel only moves and multiplies those values. Built with glslang 15 into kernels/prebuilt/.
//
// Edges: a workgroup whose tile lies inside C loads and stores through unclamped layouts, except for a last,
// partial k step; elsewhere each layout is bounded by the problem (rows by M or N, k by the end of this
// workgroup's k range) with constant clamping, so loads past an edge read 0 and stores past it are dropped
// (results/h200/notes.md, step 12, measures what clamping costs). A tensor's base must
// sit on 16 bytes; the remainder of an unaligned offset moves into the innermost coordinate instead, and where
// rows are aligned (ALIGNED_A/_B) the base and stride are written so the compiler can see it.
// The epilogue runs per element (coopMatPerElementNV) on the accumulator before it is stored; with SPLIT > 1
// workgroup z covers product z / SPLIT and k range z % SPLIT and stores raw sums to the scratch planes.
//
// Tuned specialization constants (id: meaning):
//   0: workgroup size (invocations)   1: BM   2: BN   3: BK

#extension GL_EXT_control_flow_attributes : enable
#extension GL_GOOGLE_include_directive : enable
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint BM = 128;
layout(constant_id = 2) const uint BN = 128;
layout(constant_id = 3) const uint BK = 32;

#define COOPMAT_OPERANDS 1
layout(std430, binding = 0) readonly buffer BufA { float16_t a_data[]; };
layout(std430, binding = 1) readonly buffer BufB { float16_t b_data[]; };
#include "common/gemm_common.glsl"

const uint HALVES_PER_16B = 8;
const uint FLOATS_PER_16B = 4;
#define ClampedLayout tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV>
#define OpenLayout tensorLayoutNV<2>
#define Accumulator coopmat<float, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator>
#define MatrixA coopmat<float16_t, gl_ScopeWorkgroup, BM, BK, gl_MatrixUseA>
#define MatrixB coopmat<float16_t, gl_ScopeWorkgroup, BK, BN, gl_MatrixUseB>

// Row-major 2-D layouts of `rows` x `cols` elements, `ld` apart, starting `shift` elements after their aligned
// base: the shift is added to the column bound here and to the column offset of every slice.
ClampedLayout clamped_layout(uint rows, uint cols, uint ld, uint shift) {
  ClampedLayout t = createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
  t = setTensorLayoutDimensionNV(t, rows, cols + shift);
  return setTensorLayoutStrideNV(t, ld, 1);
}
OpenLayout open_layout(uint rows, uint cols, uint ld, uint shift) {
  OpenLayout t = createTensorLayoutNV(2);
  t = setTensorLayoutDimensionNV(t, rows, cols + shift);
  return setTensorLayoutStrideNV(t, ld, 1);
}

// Where the operands start and how far apart their rows are, in a form that shows alignment to the compiler.
struct Operand {
  uint base;   // element offset of the tensor, on 16 bytes
  uint shift;  // elements from `base` to the operand's first element
  uint ld;
};
Operand operand(uint offset, uint ld, bool aligned) {
  if (aligned) return Operand(offset & ~(HALVES_PER_16B - 1u), 0u, ld & ~(HALVES_PER_16B - 1u));
  const uint shift = offset % HALVES_PER_16B;
  return Operand(offset - shift, shift, ld);
}

// One k step: the A and B slices at k0 (stored orientation, a transposed operand through a swapping view) and
// their product added to acc. The two bodies differ only in the layout type.
#define MULTIPLY_STEP(LAYOUT_A, LAYOUT_B)                                                                           \
  {                                                                                                                 \
    MatrixA a;                                                                                                      \
    MatrixB b;                                                                                                      \
    if (TRANS_A) {                                                                                                  \
      coopMatLoadTensorNV(a, a_data, oa.base, sliceTensorLayoutNV(LAYOUT_A, k0, BK, row0 + oa.shift, BM), swapped); \
    } else {                                                                                                        \
      coopMatLoadTensorNV(a, a_data, oa.base, sliceTensorLayoutNV(LAYOUT_A, row0, BM, k0 + oa.shift, BK));          \
    }                                                                                                               \
    if (TRANS_B) {                                                                                                  \
      coopMatLoadTensorNV(b, b_data, ob.base, sliceTensorLayoutNV(LAYOUT_B, col0, BN, k0 + ob.shift, BK), swapped); \
    } else {                                                                                                        \
      coopMatLoadTensorNV(b, b_data, ob.base, sliceTensorLayoutNV(LAYOUT_B, k0, BK, col0 + ob.shift, BN));          \
    }                                                                                                               \
    acc = coopMatMulAdd(a, b, acc);                                                                                 \
  }

float epilogue_element(const in uint r, const in uint c, const in float sum, const in uint row0, const in uint col0,
                       const in uint z) {
  const uint gr = row0 + r, gc = col0 + c;
  if (gr >= p.M || gc >= p.N) return 0.0;  // dropped by the store; C is not read there
  return finish(sum, z, gr, gc);
}

void main() {
  const uint row0 = (gl_WorkGroupID.y + p.base_y) * BM;
  const uint col0 = (gl_WorkGroupID.x + p.base_x) * BN;
  const uint zs = gl_WorkGroupID.z + p.base_z;
  const uint z = zs / SPLIT;
  const uint range = zs % SPLIT;
  const uint k_begin = range * p.k_split;
  const uint k_end = min(p.K, k_begin + p.k_split);
  const bool inside = row0 + BM <= p.M && col0 + BN <= p.N;

  Accumulator acc = Accumulator(0.0);
  if (p.alpha != 0.0 && k_begin < k_end) {
    const Operand oa = operand(p.off_a + z * p.stride_a, p.lda, ALIGNED_A);
    const Operand ob = operand(p.off_b + z * p.stride_b, p.ldb, ALIGNED_B);
    tensorViewNV<2, false, 1, 0> swapped = createTensorViewNV(2, false, 1, 0);
    uint k0 = k_begin;
    if (inside) {
      const OpenLayout open_a =
          TRANS_A ? open_layout(k_end, p.M, oa.ld, oa.shift) : open_layout(p.M, k_end, oa.ld, oa.shift);
      const OpenLayout open_b =
          TRANS_B ? open_layout(p.N, k_end, ob.ld, ob.shift) : open_layout(k_end, p.N, ob.ld, ob.shift);
      for (; k0 + BK <= k_end; k0 += BK) MULTIPLY_STEP(open_a, open_b)
    }
    const ClampedLayout clamped_a =
        TRANS_A ? clamped_layout(k_end, p.M, oa.ld, oa.shift) : clamped_layout(p.M, k_end, oa.ld, oa.shift);
    const ClampedLayout clamped_b =
        TRANS_B ? clamped_layout(p.N, k_end, ob.ld, ob.shift) : clamped_layout(k_end, p.N, ob.ld, ob.shift);
    for (; k0 < k_end; k0 += BK) MULTIPLY_STEP(clamped_a, clamped_b)
  }

  // C and the scratch planes are f32: 4 elements to 16 bytes.
  if (SPLIT > 1) {
    const uint base = scratch_index(z, range, 0, 0), shift = base % FLOATS_PER_16B;
    if (inside) {
      coopMatStoreTensorNV(acc, scratch_data, base - shift,
                           sliceTensorLayoutNV(open_layout(p.M, p.N, p.N, shift), row0, BM, col0 + shift, BN));
    } else {
      coopMatStoreTensorNV(acc, scratch_data, base - shift,
                           sliceTensorLayoutNV(clamped_layout(p.M, p.N, p.N, shift), row0, BM, col0 + shift, BN));
    }
  } else {
    coopMatPerElementNV(acc, acc, epilogue_element, row0, col0, z);
    const uint base = c_index(z, 0, 0), shift = base % FLOATS_PER_16B;
    if (inside) {
      coopMatStoreTensorNV(acc, c_data, base - shift,
                           sliceTensorLayoutNV(open_layout(p.M, p.N, p.ldc, shift), row0, BM, col0 + shift, BN));
    } else {
      coopMatStoreTensorNV(acc, c_data, base - shift,
                           sliceTensorLayoutNV(clamped_layout(p.M, p.N, p.ldc, shift), row0, BM, col0 + shift, BN));
    }
  }
}
