#version 450
// gemm_coopmat_int: the coopmat family for 8-bit integer inputs, C[i][j] = sum over k of (A[i][k] - ZERO_A) *
// (B[k][j] - ZERO_B) in 32-bit integers on the matrix units through VK_KHR_cooperative_matrix: 16 x 32 A and
// 32 x 16 B fragments of 8-bit values, 16 x 16 accumulators of 32 bits, subgroups of 32. Built per input type
// (INPUT_I8: int8 x int8 -> int32, INPUT_U8: uint8 x uint8 -> uint32, INPUT_U8I8: uint8 x int8 -> int32) with
// glslang 15 into kernels/prebuilt/ (scripts/regen-prebuilt.sh); the family uses it only where the device lists
// that combination.
//
// Exactness: coopMatMulAdd without the saturating operand wraps modulo 2^32, like int32 arithmetic, so every
// partial sum is exact modulo 2^32 and no chunking of k is needed; C is the same bits in any summation order.
// The zero points cannot be subtracted while staging (a - za spans -255..255, which no 8-bit fragment holds), so
// the fragments get the raw bytes and the zero points come in afterwards:
//   sum (a - za)(b - zb) = sum ab - zb * rowsum(A) - za * colsum(B) + K za zb  (all modulo 2^32),
// the terms zb * rowsum(A) and za * colsum(B) taken by the matrix units too, as A times a B fragment filled with
// zb and an A fragment filled with za times B (each zero point fits its operand's 8-bit type), only where that
// zero point is not 0. Bytes past the edges are 0 and add nothing to any of the terms.
//
// The staging is gemm_coopmat.comp's: tiles in their stored orientation in padded shared memory (16-byte
// groups of 16 elements, rows padded by 16 bytes), the next step loaded into registers during the multiply,
// STAGES = 2 double-buffers the tiles. Same tuned specialization constants, so the family's description serves
// both: 0: workgroup size = SG_M * SG_N * 32   1: BM   2: BN   3: BK (multiple of 32)   4: SG_M   5: SG_N
// 6: STAGES. Problem constants 28 and 29 are the zero points. No epilogue, no split-k: alpha 1, beta 0.

#extension GL_EXT_control_flow_attributes : enable
#extension GL_GOOGLE_include_directive : enable
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_KHR_shader_subgroup_basic : require

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint BM = 64;
layout(constant_id = 2) const uint BN = 64;
layout(constant_id = 3) const uint BK = 32;
layout(constant_id = 4) const uint SG_M = 2;
layout(constant_id = 5) const uint SG_N = 2;
layout(constant_id = 6) const uint STAGES = 1;
layout(constant_id = 28) const int ZERO_A = 0;
layout(constant_id = 29) const int ZERO_B = 0;

#define INTEGER_OPERANDS 1
layout(std430, binding = 0) readonly buffer BufA { uint a_words[]; };
layout(std430, binding = 1) readonly buffer BufB { uint b_words[]; };
// The same buffers as 16-byte groups of 16 elements, for aligned rows.
layout(std430, binding = 0) readonly buffer BufA16 { uvec4 a_vec[]; };
layout(std430, binding = 1) readonly buffer BufB16 { uvec4 b_vec[]; };
#include "common/gemm_common.glsl"
// C as int32 (the same binding as gemm_common.glsl's float view).
layout(std430, binding = 2) writeonly buffer BufCInt { int c_int[]; };

#include "common/int8.glsl"

#if defined(INPUT_I8)
#define ELEM_A int8_t
#define ELEM_B int8_t
#define SUM int
#elif defined(INPUT_U8)
#define ELEM_A uint8_t
#define ELEM_B uint8_t
#define SUM uint
#else
#define ELEM_A uint8_t
#define ELEM_B int8_t
#define SUM int
#endif
#define ACC coopmat<SUM, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>
#define FRAG_A coopmat<ELEM_A, gl_ScopeSubgroup, 16, 32, gl_MatrixUseA>
#define FRAG_B coopmat<ELEM_B, gl_ScopeSubgroup, 32, 16, gl_MatrixUseB>

const uint WG_SIZE = SG_M * SG_N * 32;
const uint WM = BM / SG_M;  // rows of C per subgroup
const uint WN = BN / SG_N;  // columns of C per subgroup
const uint FM = WM / 16;    // accumulator fragments down
const uint FN = WN / 16;    // and across

// Rows along the operand's contiguous direction, padded by 16 elements (16 bytes); offsets and strides of the
// fragment loads count uvec4s (16 elements).
const uint A_RUN = TRANS_A ? BM : BK;
const uint B_RUN = TRANS_B ? BK : BN;
const uint A_STRIDE = A_RUN + 16;
const uint B_STRIDE = B_RUN + 16;
const uint OUT_STRIDE = 16 + 4;
const uint A_TILE = (BM * BK + 16 * (BM + BK)) / 16;  // uvec4s per buffer, either orientation
const uint B_TILE = (BK * BN + 16 * (BK + BN)) / 16;
shared uvec4 tile_a[STAGES * A_TILE];
shared uvec4 tile_b[STAGES * B_TILE];
shared SUM out_frag[SG_M * SG_N * 16 * OUT_STRIDE];

const uint A_GROUPS = BM * BK / 16;
const uint B_GROUPS = BK * BN / 16;
const uint A_PER = (A_GROUPS + WG_SIZE - 1) / WG_SIZE;
const uint B_PER = (B_GROUPS + WG_SIZE - 1) / WG_SIZE;
uvec4 reg_a[A_PER];
uvec4 reg_b[B_PER];

/// The byte of element i of a word array.
uint raw_byte(uint word, uint i) { return bitfieldExtract(word, int(i & 3u) * 8, 8); }

void a_group(uint g, out uint r, out uint kk) {
  const uint along = (g % (A_RUN / 16)) * 16, across = g / (A_RUN / 16);
  if (TRANS_A) { r = along; kk = across; } else { r = across; kk = along; }
}
void b_group(uint g, out uint kk, out uint c) {
  const uint along = (g % (B_RUN / 16)) * 16, across = g / (B_RUN / 16);
  if (TRANS_B) { kk = along; c = across; } else { kk = across; c = along; }
}
uint a_slot(uint g) { return (g / (A_RUN / 16)) * (A_STRIDE / 16) + g % (A_RUN / 16); }
uint b_slot(uint g) { return (g / (B_RUN / 16)) * (B_STRIDE / 16) + g % (B_RUN / 16); }

// Tiles of aligned operands stage whole steps without bounds checks: each group's uvec4 index at k = 0, advanced
// by a constant a step; edge tiles too where their rows past M (columns past N) can read the last real row
// (column), or the last whole group of 16 for an operand stored along m (n) when M (N) is a multiple of 16: those
// values reach only C's rows (columns) past the edge, never stored (as in gemm_coopmat.comp).
bool fast_steps;
uint a_first[A_PER], b_first[B_PER];

void set_first_indices(uint z, uint row0, uint col0, uint lid) {
  const bool rows_clamp = row0 + BM <= p.M || !TRANS_A || p.M % 16 == 0;
  const bool cols_clamp = col0 + BN <= p.N || TRANS_B || p.N % 16 == 0;
  fast_steps = ALIGNED_A && ALIGNED_B && rows_clamp && cols_clamp;
  const uint last_row = TRANS_A ? max(p.M, 16u) - 16 : p.M - 1;  // the last row a group may start at
  const uint last_col = TRANS_B ? p.N - 1 : max(p.N, 16u) - 16;
  [[unroll]] for (uint j = 0; j < A_PER; ++j) {
    uint r, kk;
    a_group(lid + j * WG_SIZE, r, kk);
    a_first[j] = index_op_a(z, min(row0 + r, last_row), kk) / 16;
  }
  [[unroll]] for (uint j = 0; j < B_PER; ++j) {
    uint kk, c;
    b_group(lid + j * WG_SIZE, kk, c);
    b_first[j] = index_op_b(z, kk, min(col0 + c, last_col)) / 16;
  }
}

void load_step(uint z, uint row0, uint col0, uint k0, uint lid) {
  if (fast_steps && k0 + BK <= p.K) {  // uniform across the workgroup
    const uint s = k0 / BK;
    const uint a_step = (TRANS_A ? BK * p.lda : BK) / 16, b_step = (TRANS_B ? BK : BK * p.ldb) / 16;
    [[unroll]] for (uint j = 0; j < A_PER; ++j)
      reg_a[j] = lid + j * WG_SIZE < A_GROUPS ? a_vec[a_first[j] + s * a_step] : uvec4(0);
    [[unroll]] for (uint j = 0; j < B_PER; ++j)
      reg_b[j] = lid + j * WG_SIZE < B_GROUPS ? b_vec[b_first[j] + s * b_step] : uvec4(0);
    return;
  }
  [[unroll]] for (uint j = 0; j < A_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
    uint r, kk;
    a_group(g, r, kk);
    const uint gr = row0 + r, gk = k0 + kk;
    const bool whole = TRANS_A ? (gk < p.K && gr + 16 <= p.M) : (gr < p.M && gk + 16 <= p.K);
    if (g >= A_GROUPS) {
      reg_a[j] = uvec4(0);
    } else if (ALIGNED_A && whole) {
      reg_a[j] = a_vec[index_op_a(z, gr, gk) / 16];
    } else {
      uvec4 v = uvec4(0);
      [[unroll]] for (uint e = 0; e < 16; ++e) {
        const uint er = TRANS_A ? gr + e : gr, ek = TRANS_A ? gk : gk + e;
        if (er < p.M && ek < p.K) {
          const uint i = index_op_a(z, er, ek);
          v[e / 4] = bitfieldInsert(v[e / 4], raw_byte(a_words[i >> 2], i), int(e % 4) * 8, 8);
        }
      }
      reg_a[j] = v;
    }
  }
  [[unroll]] for (uint j = 0; j < B_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
    uint kk, c;
    b_group(g, kk, c);
    const uint gk = k0 + kk, gc = col0 + c;
    const bool whole = TRANS_B ? (gk + 16 <= p.K && gc < p.N) : (gk < p.K && gc + 16 <= p.N);
    if (g >= B_GROUPS) {
      reg_b[j] = uvec4(0);
    } else if (ALIGNED_B && whole) {
      reg_b[j] = b_vec[index_op_b(z, gk, gc) / 16];
    } else {
      uvec4 v = uvec4(0);
      [[unroll]] for (uint e = 0; e < 16; ++e) {
        const uint ek = TRANS_B ? gk + e : gk, ec = TRANS_B ? gc : gc + e;
        if (ek < p.K && ec < p.N) {
          const uint i = index_op_b(z, ek, ec);
          v[e / 4] = bitfieldInsert(v[e / 4], raw_byte(b_words[i >> 2], i), int(e % 4) * 8, 8);
        }
      }
      reg_b[j] = v;
    }
  }
}

void store_step(uint lid, uint stage) {
  [[unroll]] for (uint j = 0; j < A_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
    if (g < A_GROUPS) tile_a[stage * A_TILE + a_slot(g)] = reg_a[j];
  }
  [[unroll]] for (uint j = 0; j < B_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
    if (g < B_GROUPS) tile_b[stage * B_TILE + b_slot(g)] = reg_b[j];
  }
}

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint sg = lid / 32;
  const uint lane = lid % 32;
  const uint sg_row = sg / SG_N;
  const uint sg_col = sg % SG_N;
  const uint row0 = (gl_WorkGroupID.y + p.base_y) * BM;
  const uint col0 = (gl_WorkGroupID.x + p.base_x) * BN;
  const uint z = gl_WorkGroupID.z + p.base_z;

  ACC acc[FM * FN];
  ACC row_terms[FM];  // element (r, c): zb times the row sum of A for row r, in every column (ZERO_B != 0)
  ACC col_terms[FN];  // element (r, c): za times the column sum of B for column c, in every row (ZERO_A != 0)
  [[unroll]] for (uint f = 0; f < FM * FN; ++f) acc[f] = ACC(0);
  [[unroll]] for (uint i = 0; i < FM; ++i) row_terms[i] = ACC(0);
  [[unroll]] for (uint j = 0; j < FN; ++j) col_terms[j] = ACC(0);
  const ELEM_A za = ELEM_A(ZERO_A);
  const ELEM_B zb = ELEM_B(ZERO_B);
  const FRAG_A za_fill = FRAG_A(za);
  const FRAG_B zb_fill = FRAG_B(zb);

  set_first_indices(z, row0, col0, lid);
  load_step(z, row0, col0, 0, lid);
  if (STAGES == 2) {
    store_step(lid, 0);
    barrier();
  }
  uint stage = 0;  // the buffer the current step reads
  for (uint k0 = 0; k0 < p.K; k0 += BK) {
    const bool more = k0 + BK < p.K;
    if (STAGES == 1) {
      store_step(lid, 0);
      barrier();
    }
    if (more) load_step(z, row0, col0, k0 + BK, lid);
    const uint a_base = stage * A_TILE, b_base = stage * B_TILE;
    [[unroll]] for (uint kk = 0; kk < BK; kk += 32) {
      FRAG_A a_frag[FM];
      [[unroll]] for (uint i = 0; i < FM; ++i) {
        const uint r = sg_row * WM + i * 16;
        coopMatLoad(a_frag[i], tile_a, a_base + (TRANS_A ? kk * A_STRIDE + r : r * A_STRIDE + kk) / 16, A_STRIDE / 16,
                    TRANS_A ? gl_CooperativeMatrixLayoutColumnMajor : gl_CooperativeMatrixLayoutRowMajor);
        if (ZERO_B != 0) row_terms[i] = coopMatMulAdd(a_frag[i], zb_fill, row_terms[i]);
      }
      [[unroll]] for (uint j = 0; j < FN; ++j) {
        FRAG_B b_frag;
        const uint c = sg_col * WN + j * 16;
        coopMatLoad(b_frag, tile_b, b_base + (TRANS_B ? c * B_STRIDE + kk : kk * B_STRIDE + c) / 16, B_STRIDE / 16,
                    TRANS_B ? gl_CooperativeMatrixLayoutColumnMajor : gl_CooperativeMatrixLayoutRowMajor);
        if (ZERO_A != 0) col_terms[j] = coopMatMulAdd(za_fill, b_frag, col_terms[j]);
        [[unroll]] for (uint i = 0; i < FM; ++i) acc[i * FN + j] = coopMatMulAdd(a_frag[i], b_frag, acc[i * FN + j]);
      }
    }
    if (STAGES == 2) {
      stage ^= 1u;
      if (more) store_step(lid, stage);
    }
    barrier();
  }

  // The zero-point terms, as whole matrices (wrapping like the sums), then out through shared memory one
  // fragment per subgroup at a time.
  const SUM k_zz = SUM(int(p.K) * ZERO_A * ZERO_B);
  const uint out_base = sg * 16 * OUT_STRIDE;
  [[unroll]] for (uint i = 0; i < FM; ++i) {
    [[unroll]] for (uint j = 0; j < FN; ++j) {
      ACC result = acc[i * FN + j];
      if (ZERO_B != 0) result = result - row_terms[i];
      if (ZERO_A != 0) result = result - col_terms[j];
      coopMatStore(result, out_frag, out_base, OUT_STRIDE, gl_CooperativeMatrixLayoutRowMajor);
      subgroupBarrier();
      for (uint e = lane; e < 256; e += 32) {
        const uint r = e / 16, c = e % 16;
        const uint gr = row0 + sg_row * WM + i * 16 + r;
        const uint gc = col0 + sg_col * WN + j * 16 + c;
        if (gr < p.M && gc < p.N) c_int[c_index(z, gr, gc)] = int(out_frag[out_base + r * OUT_STRIDE + c] + k_zz);
      }
      subgroupBarrier();
    }
  }
}
