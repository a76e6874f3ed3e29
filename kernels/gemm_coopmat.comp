#version 450
// gemm_coopmat: GEMM on the matrix units through VK_KHR_cooperative_matrix, 16 x 16 x 16 fragments with f32
// accumulation, subgroups of 32. Written for f16; the bf16 SPIR-V is this kernel's with its 16-bit float type
// retyped to bfloat16 (scripts/spirv_bf16.py), which is sound because the kernel only moves and multiplies those
// values. Built with glslang 15 into kernels/prebuilt/ (scripts/regen-prebuilt.sh) where the system glslang
// lacks GL_KHR_cooperative_matrix.
//
// A workgroup owns a BM x BN tile of C, SG_M x SG_N subgroups each own a (BM/SG_M) x (BN/SG_N) block of 16 x 16
// f32 accumulators. Each k step copies the A and B tiles from the operand buffers, in their own 16-bit type and
// without conversion, into padded shared memory (bounds, transposes and leading dimensions handled there), then
// every subgroup loads its fragments and multiplies. Accumulators leave through shared memory one fragment at a
// time, so alpha, beta, bias, activation and edges are plain code (common/gemm_common.glsl). With SPLIT > 1,
// workgroup z covers product z / SPLIT and k range z % SPLIT and writes raw sums to the scratch planes.
//
// Tuned specialization constants (id: meaning):
//   0: workgroup size = SG_M * SG_N * 32   1: BM   2: BN   3: BK (multiple of 16)   4: SG_M   5: SG_N

#extension GL_EXT_control_flow_attributes : enable
#extension GL_GOOGLE_include_directive : enable
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_KHR_shader_subgroup_basic : require

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint BM = 64;
layout(constant_id = 2) const uint BN = 64;
layout(constant_id = 3) const uint BK = 16;
layout(constant_id = 4) const uint SG_M = 2;
layout(constant_id = 5) const uint SG_N = 2;

#define COOPMAT_OPERANDS 1
layout(std430, binding = 0) readonly buffer BufA { float16_t a_data[]; };
layout(std430, binding = 1) readonly buffer BufB { float16_t b_data[]; };
#include "common/gemm_common.glsl"

const uint WG_SIZE = SG_M * SG_N * 32;
const uint WM = BM / SG_M;  // rows of C per subgroup
const uint WN = BN / SG_N;  // columns of C per subgroup
const uint FM = WM / 16;    // accumulator fragments down
const uint FN = WN / 16;    // and across
// 8 halves (16 bytes) of padding per row keep fragment loads and the staging stores off one bank.
const uint A_STRIDE = BK + 8;
const uint B_STRIDE = BN + 8;
const uint OUT_STRIDE = 16 + 4;

shared float16_t tile_a[BM * A_STRIDE];  // row-major: tile_a[row * A_STRIDE + kk]
shared float16_t tile_b[BK * B_STRIDE];  // row-major: tile_b[kk * B_STRIDE + col]
shared float out_frag[SG_M * SG_N * 16 * OUT_STRIDE];

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint sg = lid / 32;
  const uint lane = lid % 32;
  const uint sg_row = sg / SG_N;
  const uint sg_col = sg % SG_N;
  const uint row0 = (gl_WorkGroupID.y + p.base_y) * BM;
  const uint col0 = (gl_WorkGroupID.x + p.base_x) * BN;
  const uint zs = gl_WorkGroupID.z + p.base_z;
  const uint z = zs / SPLIT;
  const uint range = zs % SPLIT;
  const uint k_begin = range * p.k_split;
  const uint k_end = min(p.K, k_begin + p.k_split);

  coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> acc[FM * FN];
  [[unroll]] for (uint f = 0; f < FM * FN; ++f) acc[f] = coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);

  if (p.alpha != 0.0 && k_begin < k_end) {
    for (uint k0 = k_begin; k0 < k_end; k0 += BK) {
      // Stage: consecutive invocations walk the direction that is contiguous in memory.
      for (uint e = lid; e < BM * BK; e += WG_SIZE) {
        uint r, kk;
        if (TRANS_A) { r = e % BM; kk = e / BM; } else { kk = e % BK; r = e / BK; }
        const uint gr = row0 + r, gk = k0 + kk;
        tile_a[r * A_STRIDE + kk] = (gr < p.M && gk < k_end) ? a_data[index_op_a(z, gr, gk)] : float16_t(0);
      }
      for (uint e = lid; e < BK * BN; e += WG_SIZE) {
        uint kk, c;
        if (TRANS_B) { kk = e % BK; c = e / BK; } else { c = e % BN; kk = e / BN; }
        const uint gk = k0 + kk, gc = col0 + c;
        tile_b[kk * B_STRIDE + c] = (gk < k_end && gc < p.N) ? b_data[index_op_b(z, gk, gc)] : float16_t(0);
      }
      barrier();
      [[unroll]] for (uint kk = 0; kk < BK; kk += 16) {
        coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> a_frag[FM];
        [[unroll]] for (uint i = 0; i < FM; ++i) {
          coopMatLoad(a_frag[i], tile_a, (sg_row * WM + i * 16) * A_STRIDE + kk, A_STRIDE, gl_CooperativeMatrixLayoutRowMajor);
        }
        [[unroll]] for (uint j = 0; j < FN; ++j) {
          coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> b_frag;
          coopMatLoad(b_frag, tile_b, kk * B_STRIDE + sg_col * WN + j * 16, B_STRIDE, gl_CooperativeMatrixLayoutRowMajor);
          [[unroll]] for (uint i = 0; i < FM; ++i) acc[i * FN + j] = coopMatMulAdd(a_frag[i], b_frag, acc[i * FN + j]);
        }
      }
      barrier();
    }
  }

  // Out through shared memory, one fragment per subgroup at a time: each lane writes 8 of its 256 elements.
  const uint out_base = sg * 16 * OUT_STRIDE;
  [[unroll]] for (uint i = 0; i < FM; ++i) {
    [[unroll]] for (uint j = 0; j < FN; ++j) {
      coopMatStore(acc[i * FN + j], out_frag, out_base, OUT_STRIDE, gl_CooperativeMatrixLayoutRowMajor);
      subgroupBarrier();
      for (uint e = lane; e < 256; e += 32) {
        const uint r = e / 16, c = e % 16;
        const uint gr = row0 + sg_row * WM + i * 16 + r;
        const uint gc = col0 + sg_col * WN + j * 16 + c;
        if (gr < p.M && gc < p.N) {
          const float sum = out_frag[out_base + r * OUT_STRIDE + c];
          if (SPLIT > 1) {
            scratch_data[scratch_index(z, range, gr, gc)] = sum;
          } else {
            c_data[c_index(z, gr, gc)] = finish(sum, z, gr, gc);
          }
        }
      }
      subgroupBarrier();
    }
  }
}
