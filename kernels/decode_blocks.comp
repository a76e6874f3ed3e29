#version 450
// decode_blocks: the pre-pass of the configs that decode block-quantized B once (rules::Prepass::decode_b in
// src/core/dispatch_rules.hpp): every element of op(B) (stored N x K in ggml's blocks) written once as f16 to the
// scratch buffer, element (z, n, k) at z x N x K (0 where B is shared by the batch) + n x K + k, so the main pass
// stages plain f16 rows instead of decoding each block once per tile that reads it. An invocation decodes a group
// of 8 elements (K is a multiple of 32, so a group lies in one row and one block) and writes it as one 16-byte
// store; scale x code is exact in f32 and rounded once to f16 (within the f16 input bound the quantized types are
// held to). Built per input type like the GEMM kernels (INPUT_<A><B>; only B's block type matters here).

#extension GL_GOOGLE_include_directive : enable

layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;

#define BLOCK_OPERANDS 1
#include "common/gemm_common.glsl"
#include "common/quant_blocks.glsl"

layout(std430, binding = 4) writeonly buffer BufPlane { uvec4 plane_groups[]; };

void main() {
  const uint z = gl_WorkGroupID.z + p.base_z;
  const uint first = ((gl_WorkGroupID.x + p.base_x) * 256 + gl_LocalInvocationID.x) * 8;  // within matrix z
  if (first >= p.N * p.K) return;
  const uint n = first / p.K, kk = first % p.K;
  vec4 lo, hi;
  decode_group(index_op_b(z, kk, n), lo, hi);
  const uint plane_first = (p.stride_b != 0u ? z * p.N * p.K : 0u) + first;
  plane_groups[plane_first / 8] =
      uvec4(packHalf2x16(lo.xy), packHalf2x16(lo.zw), packHalf2x16(hi.xy), packHalf2x16(hi.zw));
}
