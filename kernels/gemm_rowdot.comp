#version 450
// gemm_rowdot: products with at most 16 rows of op(A) and B stored N x K (layouts nt and tt: a linear layer's
// weight). Every element of C is the dot product of a row of op(A) with a row of B as stored, and both run along
// k, so a workgroup streams ROWS whole rows of B with 16-byte loads (4 f32 or 8 16-bit values) and every
// invocation owns every V-th chunk of those rows, for all M rows of op(A) at once: one pass over B serves the
// whole product. Each trip issues the UNROLL x ROWS loads of B before their multiplies, so that many 16-byte
// loads are in flight per invocation (decoding is bound by bytes in flight, not by arithmetic).
//
// Alignment: where every row of op(A) and of B is contiguous and starts on a 16-byte boundary (A_ROWS_VECTOR: A
// stored M x K with aligned rows, or M = 1 with A stored K x 1; ALIGNED_B), the chunks of all ROWS rows sit at
// the same k and the matching chunk of each row of op(A) is one vector load, shared by the ROWS rows. Elsewhere
// (odd K, offsets, A transposed with M > 1) each row of B keeps 16-byte loads on its aligned body (its own
// shift), reads op(A) element by element at the matching k, and takes its head and tail (at most V - 1
// elements each) one element at a time; never a scalar kernel for the whole row.
//
// Summation order, fixed by the config and the device's subgroup size (so deterministic mode needs nothing
// more): each invocation chains its chunks in increasing k (within a chunk in increasing k), then its head and
// tail elements; a subgroup adds its invocations' sums by an xor butterfly of shuffles (lanes at distance 1, 2,
// 4, ...), and the subgroups' sums are added in subgroup order through shared memory. (A tree over every
// invocation in shared memory, tried first, needed WG x ROWS x M floats and log2(WG) barriers: at K = 768 it
// cost more than the loads.)
//
// Split-k in one pass (problem constant 25: SPLIT > 1), for N too small to fill the device (768 rows): workgroup x
// covers block x / SPLIT of rows over k range x % SPLIT (p.k_split terms, a multiple of 32, so ranges start on
// chunk boundaries of aligned rows); each workgroup writes its range's sums to the scratch planes and counts its
// arrival on the block (binding 5, zero between runs), and the last to arrive adds the planes in range order,
// applies the epilogue and sets the count back to zero (as gemm_fewrows.comp).
//
// Tuned specialization constants (id: meaning):
//   0: workgroup size   1: ROWS, rows of B (columns of C) per workgroup   2: UNROLL, chunks per row per trip
// Problem constants 31: M_ROWS, the rows of op(A) (the problem's M, at most 16), so accumulators are exactly M;
// 32: A_ROWS_VECTOR (below).

#extension GL_EXT_control_flow_attributes : enable
#extension GL_GOOGLE_include_directive : enable
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_shuffle : enable

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint ROWS = 2;
layout(constant_id = 2) const uint UNROLL = 2;
layout(constant_id = 31) const uint M_ROWS = 1;
// Problem constant 32 (declared here, not in gemm_common.glsl, whose bytes the prebuilt modules' manifest pins):
// every row of op(A) is contiguous in k and 16-byte aligned (A stored M x K with ALIGNED_A, or M = 1 with A
// stored K x 1, ld 1).
layout(constant_id = 32) const bool A_ROWS_VECTOR = false;

#include "common/gemm_common.glsl"

#if defined(INPUT_F32)
const uint V = 4;  // elements per 16-byte load
#define CHUNK vec4
CHUNK load_chunk_b(uint elem) { return b_vec4[elem / 4]; }
CHUNK load_chunk_a(uint elem) { return a_vec4[elem / 4]; }
float chunk_elem(CHUNK x, uint e) { return x[e]; }
#else
const uint V = 8;
#define CHUNK uvec4
layout(std430, binding = 0) readonly buffer BufA8 { uvec4 a_u4[]; };
layout(std430, binding = 1) readonly buffer BufB8 { uvec4 b_u4[]; };
CHUNK load_chunk_b(uint elem) { return b_u4[elem / 8]; }
CHUNK load_chunk_a(uint elem) { return a_u4[elem / 8]; }
float chunk_elem(CHUNK x, uint e) { return decode16(x[e / 2], e); }
#endif

// The subgroups' sums: at most one subgroup per 8 invocations (the family requires subgroups of 8 or more).
shared float sums[(gl_WorkGroupSize.x / 8) * ROWS * M_ROWS];

#include "common/split_one_pass.glsl"

float acc[ROWS * M_ROWS];

/// Adds row r of B's elements k in [k_begin, k_end) (element by element) for every row of op(A); invocation
/// `lid` takes every WG-th one.
void add_elements(uint z, uint r, uint n, uint k_begin, uint k_end, uint lid) {
  for (uint k = k_begin + lid; k < k_end; k += gl_WorkGroupSize.x) {
    const float b = load_op_b(z, k, n);
    [[unroll]] for (uint i = 0; i < M_ROWS; ++i) acc[r * M_ROWS + i] = fma(load_op_a(z, i, k), b, acc[r * M_ROWS + i]);
  }
}

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint wg = gl_WorkGroupSize.x;
  const uint block = (gl_WorkGroupID.x + p.base_x) / SPLIT, range = (gl_WorkGroupID.x + p.base_x) % SPLIT;
  const uint kb = range * p.k_split, ke = min(p.K, kb + p.k_split);  // this workgroup's k
  const uint n0 = block * ROWS;
  const uint z = gl_WorkGroupID.z + p.base_z;
  [[unroll]] for (uint t = 0; t < ROWS * M_ROWS; ++t) acc[t] = 0.0;

  if (p.alpha != 0.0) {
    if (A_ROWS_VECTOR && ALIGNED_B) {
      // Every row of op(A) and B is contiguous and starts on a 16-byte boundary: chunk c of every row is at k = c * V
      // (kb is a multiple of V).
      const uint chunks = ke / V;
      uint row_b[ROWS];
      [[unroll]] for (uint r = 0; r < ROWS; ++r) {
        row_b[r] = index_op_b(z, 0, min(n0 + r, p.N - 1));  // rows past N repeat the last
      }
      uint c = kb / V + lid;
      for (; c + (UNROLL - 1) * wg < chunks; c += UNROLL * wg) {
        CHUNK bv[UNROLL * ROWS];
        [[unroll]] for (uint u = 0; u < UNROLL; ++u)
          [[unroll]] for (uint r = 0; r < ROWS; ++r) bv[u * ROWS + r] = load_chunk_b(row_b[r] + (c + u * wg) * V);
        [[unroll]] for (uint u = 0; u < UNROLL; ++u) {
          [[unroll]] for (uint i = 0; i < M_ROWS; ++i) {
            const CHUNK av = load_chunk_a(index_op_a(z, i, (c + u * wg) * V));
            [[unroll]] for (uint r = 0; r < ROWS; ++r)
              [[unroll]] for (uint e = 0; e < V; ++e)
                acc[r * M_ROWS + i] = fma(chunk_elem(av, e), chunk_elem(bv[u * ROWS + r], e), acc[r * M_ROWS + i]);
          }
        }
      }
      for (; c < chunks; c += wg) {
        CHUNK bv[ROWS];
        [[unroll]] for (uint r = 0; r < ROWS; ++r) bv[r] = load_chunk_b(row_b[r] + c * V);
        [[unroll]] for (uint i = 0; i < M_ROWS; ++i) {
          const CHUNK av = load_chunk_a(index_op_a(z, i, c * V));
          [[unroll]] for (uint r = 0; r < ROWS; ++r) {
            [[unroll]] for (uint e = 0; e < V; ++e) {
              acc[r * M_ROWS + i] = fma(chunk_elem(av, e), chunk_elem(bv[r], e), acc[r * M_ROWS + i]);
            }
          }
        }
      }
      [[unroll]] for (uint r = 0; r < ROWS; ++r) add_elements(z, r, min(n0 + r, p.N - 1), chunks * V, ke, lid);
    } else {
      // Each row of B on its own: 16-byte chunks on its aligned body, op(A) element by element.
      [[unroll]] for (uint r = 0; r < ROWS; ++r) {
        const uint n = min(n0 + r, p.N - 1);
        const uint start = index_op_b(z, 0, n);
        const uint shift = start % V;              // elements of the row before its first 16-byte boundary
        const uint head = shift == 0 ? 0 : V - shift;  // k of the first aligned chunk
        // The whole chunks inside [kb, ke): chunk j starts at k = head + j * V.
        const uint first = kb <= head ? 0 : (kb - head + V - 1) / V;
        const uint chunks = ke > head ? (ke - head) / V : 0;  // one past the last
        uint c = first + lid;
        for (; c + (UNROLL - 1) * wg < chunks; c += UNROLL * wg) {
          CHUNK bv[UNROLL];
          [[unroll]] for (uint u = 0; u < UNROLL; ++u) bv[u] = load_chunk_b(start + head + (c + u * wg) * V);
          [[unroll]] for (uint u = 0; u < UNROLL; ++u) {
            const uint k0 = head + (c + u * wg) * V;
            [[unroll]] for (uint i = 0; i < M_ROWS; ++i) {
              [[unroll]] for (uint e = 0; e < V; ++e) {
                acc[r * M_ROWS + i] = fma(load_op_a(z, i, k0 + e), chunk_elem(bv[u], e), acc[r * M_ROWS + i]);
              }
            }
          }
        }
        for (; c < chunks; c += wg) {
          const CHUNK bv = load_chunk_b(start + head + c * V);
          [[unroll]] for (uint i = 0; i < M_ROWS; ++i) {
            [[unroll]] for (uint e = 0; e < V; ++e) {
              acc[r * M_ROWS + i] = fma(load_op_a(z, i, head + c * V + e), chunk_elem(bv, e), acc[r * M_ROWS + i]);
            }
          }
        }
        // The range's elements outside whole chunks: before the first (the row's head) and after the last.
        const uint body_begin = chunks > first ? head + first * V : clamp(head, kb, ke);
        const uint body_end = chunks > first ? head + chunks * V : body_begin;
#if !defined(FAULT_DROP_HEAD)  // planted fault (tests/gpu/test_planted_faults.cpp): shifted rows' heads dropped
        add_elements(z, r, n, kb, body_begin, lid);
#endif
        add_elements(z, r, n, body_end, ke, lid);
      }
    }
  }

  // Each subgroup's sums by an xor butterfly (distance 1, 2, 4, ...: every lane ends with the same bits, since
  // a + b = b + a), then the subgroups' sums in subgroup order.
  [[unroll]] for (uint t = 0; t < ROWS * M_ROWS; ++t) {
    float v = acc[t];
    for (uint d = 1; d < gl_SubgroupSize; d <<= 1) v = v + subgroupShuffleXor(v, d);
    acc[t] = v;
  }
  if (gl_SubgroupInvocationID == 0) {
    [[unroll]] for (uint t = 0; t < ROWS * M_ROWS; ++t) sums[gl_SubgroupID * ROWS * M_ROWS + t] = acc[t];
  }
  barrier();
  for (uint t = lid; t < ROWS * M_ROWS; t += wg) {
    const uint r = t / M_ROWS, i = t % M_ROWS;
    if (n0 + r >= p.N) continue;
    precise float sum = sums[t];
    for (uint g = 1; g < gl_NumSubgroups; ++g) sum = sum + sums[g * ROWS * M_ROWS + t];
    if (SPLIT == 1) {
      c_data[c_index(z, i, n0 + r)] = finish(sum, z, i, n0 + r);
    } else {
      planes[scratch_index(z, range, i, n0 + r)] = sum;
    }
  }
  if (SPLIT == 1) return;

  // The workgroup that brings the block's count to SPLIT finishes it.
  const uint counter = z * ((p.N + ROWS - 1) / ROWS) + block;
  if (!split_last_to_arrive(counter)) return;
  for (uint t = lid; t < ROWS * M_ROWS; t += wg) {
    const uint r = t / M_ROWS, i = t % M_ROWS;
    if (n0 + r < p.N) c_data[c_index(z, i, n0 + r)] = finish(split_planes_sum(z, i, n0 + r), z, i, n0 + r);
  }
  split_reset_arrivals(counter);
}
