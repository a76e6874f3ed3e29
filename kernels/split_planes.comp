#version 450
// split_planes: the pre-pass of the bf16x6 configs that split once (rules::Prepass::split_ab in
// src/core/dispatch_rules.hpp): every f32 element of op(A) and op(B) split into three bfloat16 parts (hi, mid, lo:
// common/bf16_split.glsl, the parts the staging split makes) and written to the scratch buffer, rows of op(A) then
// rows of op(B)^T, K rounded up to whole groups of 8 with zeros, each group's three parts as three adjacent 16-byte
// vectors. The main pass then stages plain 16-bit tiles, in one layout whatever the operands' (A as M x K, B as
// N x K), instead of splitting each element once per tile that reads it. An invocation makes one group; neighbouring
// invocations walk each operand's contiguous direction, so the reads coalesce (a transposed operand's writes do not).

#extension GL_EXT_control_flow_attributes : enable
#extension GL_GOOGLE_include_directive : enable

layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;

#include "common/gemm_common.glsl"
#include "common/bf16_split.glsl"

layout(std430, binding = 4) writeonly buffer BufParts { uvec4 part_groups[]; };

/// Element k of a row (of op(A), or of op(B)^T where `is_b`) as f32 bits, 0 past K.
uint element(bool is_b, uint z, uint row, uint k) {
  if (k >= p.K) return 0u;
  return floatBitsToUint(is_b ? b_data[index_op_b(z, k, row)] : a_data[index_op_a(z, row, k)]);
}

void main() {
  const uint z = gl_WorkGroupID.z + p.base_z;
  const uint q = (gl_WorkGroupID.x + p.base_x) * 256 + gl_LocalInvocationID.x;
  const uint k8 = (p.K + 7) / 8;
  const bool is_b = q >= p.M * k8;
  if (q >= (p.M + p.N) * k8) return;
  const uint qq = is_b ? q - p.M * k8 : q;
  const uint rows = is_b ? p.N : p.M;
  // Along k where the operand is contiguous in k (A as stored, B transposed), else along its rows.
  const bool along_k = is_b ? TRANS_B : !TRANS_A;
  const uint row = along_k ? qq / k8 : qq % rows, group = along_k ? qq % k8 : qq / rows;
  const uint k0 = group * 8;
  uvec4 lo, hi;
  const bool vectors = along_k && k0 + 8 <= p.K && (is_b ? ALIGNED_B : ALIGNED_A);
  if (vectors) {
    const uint i = (is_b ? index_op_b(z, k0, row) : index_op_a(z, row, k0)) / 4;
    lo = floatBitsToUint(is_b ? b_vec4[i] : a_vec4[i]);
    hi = floatBitsToUint(is_b ? b_vec4[i + 1] : a_vec4[i + 1]);
  } else {
    lo = uvec4(element(is_b, z, row, k0), element(is_b, z, row, k0 + 1), element(is_b, z, row, k0 + 2),
               element(is_b, z, row, k0 + 3));
    hi = uvec4(element(is_b, z, row, k0 + 4), element(is_b, z, row, k0 + 5), element(is_b, z, row, k0 + 6),
               element(is_b, z, row, k0 + 7));
  }
  uvec4 part0, part1, part2;
  split8(lo, hi, part0, part1, part2);
  const uint at = 3 * ((z * (p.M + p.N) + (is_b ? p.M : 0u) + row) * k8 + group);
  part_groups[at] = part0;
  part_groups[at + 1] = part1;
  part_groups[at + 2] = part2;
}
