#version 450
// align_planes: the pre-pass of the coopmat configs that align their 16-bit operands (rules::Prepass::align_ab in
// src/core/dispatch_rules.hpp; the planes' layout: common/aligned_planes.glsl): every element of A and B copied once,
// in its stored orientation, to rows of whole 16-byte groups with K padded to a multiple of 64 and zeros past the
// operand, so that the main pass (gemm_coopmat.comp built with AB_PLANES) stages every tile as 16-byte vectors
// wherever the operands' own rows start (a leading dimension or offset off 16 bytes) and takes no partial k step. An
// invocation writes one group of 8 elements; neighbouring invocations take neighbouring groups of a row, so both the
// reads and the writes coalesce. One build serves f16 and bf16: it moves 16-bit patterns.

#extension GL_EXT_control_flow_attributes : enable
#extension GL_GOOGLE_include_directive : enable

layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;

#define ALIGN_PLANES_PASS 1
#include "common/gemm_common.glsl"

// Read as words, as every kernel reads 16-bit operands (their buffers are padded to whole words).
layout(std430, binding = 0) readonly buffer BufA { uint a_words[]; };
layout(std430, binding = 1) readonly buffer BufB { uint b_words[]; };
layout(std430, binding = 4) writeonly buffer BufPlanes { uvec4 plane_groups[]; };

uint word_at(bool is_b, uint w) { return is_b ? b_words[w] : a_words[w]; }
uint half_at(bool is_b, uint i) { return (word_at(is_b, i >> 1) >> ((i & 1u) * 16u)) & 0xffffu; }

void main() {
  const uint z = gl_WorkGroupID.z + p.base_z;
  const uint q = (gl_WorkGroupID.x + p.base_x) * 256 + gl_LocalInvocationID.x;
  const uint a_groups = plane_rows_a() * plane_ld_a() / 8u;
  const bool is_b = q >= a_groups;
  // A shared operand (batch stride 0) has product 0's plane only.
  if (q >= plane_region() / 8u || (z > 0u && (is_b ? p.stride_b : p.stride_a) == 0u)) return;
  const uint g = is_b ? q - a_groups : q;
  const uint run = (is_b ? plane_ld_b() : plane_ld_a()) / 8u;  // groups a plane row
  const uint row = g / run, col = (g % run) * 8u;
  // The operand as stored: rows x cols elements, row r at off + z * stride + r * ld.
  const uint rows = is_b ? (TRANS_B ? p.N : p.K) : (TRANS_A ? p.K : p.M);
  const uint cols = is_b ? (TRANS_B ? p.K : p.N) : (TRANS_A ? p.M : p.K);
  // The group's first element as stored (read only where row < rows).
  const uint first = is_b ? p.off_b + z * p.stride_b + row * p.ldb + col : p.off_a + z * p.stride_a + row * p.lda + col;
  uvec4 group = uvec4(0u);
  if (row < rows) {
    if (col + 8u <= cols) {
      const uint w = first >> 1;
      const uint x0 = word_at(is_b, w), x1 = word_at(is_b, w + 1u), x2 = word_at(is_b, w + 2u),
                 x3 = word_at(is_b, w + 3u);
      if ((first & 1u) == 0u) {
        group = uvec4(x0, x1, x2, x3);
      } else {
        // The words start one element early: each shifted down half a word, the group's last element on top.
        const uint last = half_at(is_b, first + 7u);
        group = uvec4((x0 >> 16) | (x1 << 16), (x1 >> 16) | (x2 << 16), (x2 >> 16) | (x3 << 16),
                      (x3 >> 16) | (last << 16));
      }
    } else {
      uint e[8];
      [[unroll]] for (uint i = 0; i < 8u; ++i) e[i] = col + i < cols ? half_at(is_b, first + i) : 0u;
      group = uvec4(e[0] | (e[1] << 16), e[2] | (e[3] << 16), e[4] | (e[5] << 16), e[6] | (e[7] << 16));
    }
  }
  plane_groups[(is_b ? plane_b_base(z) : plane_a_base(z)) / 8u + g] = group;
}
