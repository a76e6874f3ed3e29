#version 450
// gemm_rowmma: decoding-sized products (at most 16 rows of op(A)) on the matrix units through
// VK_KHR_cooperative_matrix, 16 x 16 x 16 f16 fragments with f32 sums, subgroups of 32.
// Written for f16; the bf16 SPIR-V is this kernel's with its 16-bit float type retyped (scripts/spirv_bf16.py),
// sound because the kernel only moves and multiplies those values. Built with glslang 15 into kernels/prebuilt/.
//
// It computes C^T = op(B)^T op(A)^T: a block of 16 columns n of op(B) is the matrix units' A operand (rows n, columns
// k): B stored N x K (layouts nt and tt) stages it as stored and loads it row-major; B stored K x N (nn and tn) stages
// 16 rows of k of 16 values of n each and loads it column-major. op(A)^T, padded to 16 columns with zeros, is their B
// operand. One pass over B
// serves all M rows of op(A), and the multiplies that cost the SIMT row-dot kernel its time at M = 4..16 (M
// products per loaded element of B) are a few matrix instructions per 512 bytes of B.
//
// A workgroup owns FRAGS blocks of 16 rows of B (16 * FRAGS columns of C); its SUBGROUPS subgroups split k: subgroup s
// takes k fragments [(t * SUBGROUPS + s) * UNROLL, +UNROLL) in its trip t (the trips rotated per workgroup, see main),
// so a trip of the workgroup reads SUBGROUPS * UNROLL * 32 contiguous bytes of every row. A trip's loads all go out at
// once into one of two register buffers, one 16-byte load per lane and fragment of B (FRAGS * UNROLL * 512 bytes a
// subgroup) and its 16-byte groups of op(A), the next trip's before this one is multiplied; then, fragment by fragment,
// the subgroup stores them to its own shared memory and multiplies. The loads in flight are what decoding is bound by:
// loading fragments straight from the buffer (coopMatLoad on the storage buffer), staging whole trips in shared memory,
// and one register buffer (nothing in flight while a trip is multiplied) were each measured slower
// (results/h200/notes.md, issue 18 steps 5-7). Rows M..15 of the staged op(A) are zero; subgroups meet only at the end,
// where their sums (stored over their staging slots) are added in subgroup order.
//
// Edges: the last block of rows starts at N - 16 where 16 rows do not fit (rows already owned by the block
// before are computed again, not written); k beyond the last whole fragment is one more fragment ending at K
// whose op(A) values below that k are zero. Hence N >= 16, K >= 16, K a multiple of 8 and B's rows aligned to
// 16 bytes, and for B stored K x N also N a multiple of 8, so that the last block's rows start on 16 bytes; WIDE reads
// rows of k and so serves B stored N x K only (src/kernels/rowmma.cpp refuses the rest; row-dot and few-rows serve
// them).
//
// Tuned specialization constants (id: meaning):
//   0: workgroup size = SUBGROUPS * 32   1: FRAGS, 16-row blocks of B per workgroup
//   2: UNROLL, k fragments per subgroup and trip   3: WIDE, how a trip's loads of B cover it (below)
//   4: REGS, fragments built in registers where the device's fragment layout allows (below)
// Problem constant 25: SPLIT, k ranges (split-k, 1 = none): workgroup x covers block x / SPLIT of rows over range
// x % SPLIT (p.k_split terms, a multiple of 32), so the workgroups resident at once cover SPLIT times fewer rows;
// with SPLIT > 1 the raw sums go to scratch planes and splitk_reduce.comp finishes them.
// Problem constants 31: M_ROWS (the problem's M, at most 16); 32: A_ROWS_VECTOR (as in gemm_rowdot.comp).

#extension GL_EXT_control_flow_attributes : enable
#extension GL_GOOGLE_include_directive : enable
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_KHR_shader_subgroup_basic : require

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint FRAGS = 1;
layout(constant_id = 2) const uint UNROLL = 2;
layout(constant_id = 3) const bool WIDE = false;
layout(constant_id = 4) const bool REGS = false;
layout(constant_id = 31) const uint M_ROWS = 1;
layout(constant_id = 32) const bool A_ROWS_VECTOR = false;

#define COOPMAT_OPERANDS 1
layout(std430, binding = 0) readonly buffer BufA { float16_t a_data[]; };
layout(std430, binding = 1) readonly buffer BufB { float16_t b_data[]; };
layout(std430, binding = 0) readonly buffer BufA8 { uvec4 a_vec[]; };
layout(std430, binding = 1) readonly buffer BufB8 { uvec4 b_vec[]; };
layout(std430, binding = 1) readonly buffer BufB4 { uvec2 b_pairs[]; };
layout(std430, binding = 1) readonly buffer BufB2 { uint b_words[]; };
#include "common/gemm_common.glsl"

#define FRAG_A coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA>
#define FRAG_B coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB>
#define FRAG_ACC coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>

const uint SUBGROUPS = gl_WorkGroupSize.x / 32;
// A staged fragment: 16 rows of 16 values padded to 24 (3 uvec4s) against bank conflicts. op(A) is staged as 16
// rows m of 16 values of k and loads column-major (k down, m across); B's fragments load row-major.
const uint ROW = 3;
const uint A_SLOT = 16 * ROW;
// Per block of rows: its staged fragment, later its 16 x 16 f32 sums (64 uvec4s).
const uint B_SLOT = 64;
shared uvec4 stage_a[SUBGROUPS * A_SLOT];
shared uvec4 stage_b[SUBGROUPS * FRAGS * B_SLOT];
shared uint layout_differs[SUBGROUPS];

// A trip in registers (two buffers): lane l holds half a row (row l / 2, values (l % 2) * 8 onwards) of every
// fragment of B, and 16-byte groups g = l + 32 i of op(A), group g being row m = (g / 2) % M_ROWS, values (g % 2) * 8
// of fragment u = g / (2 M_ROWS).
const uint A_GROUPS = 2 * M_ROWS * UNROLL;
const uint A_PER = (A_GROUPS + 31) / 32;
uvec4 reg_b[2][FRAGS * UNROLL];
uvec4 reg_a[2][A_PER];
FRAG_ACC acc[FRAGS];

// Block f of the workgroup: rows [row0(f), row0(f) + 16), live when it has rows of its own. Functions, not arrays:
// an array indexed by a variable anywhere (the final sums) goes to local memory, and its reads in the loop with it,
// where B streaming through L1 evicts it (results/h200/notes.md, issue 18 step 13).
uint n_first;  // the workgroup's first row
bool live(uint f) { return n_first + 16 * f < p.N; }
uint row0(uint f) { return min(n_first + 16 * f, p.N - 16); }

// WIDE: in a whole trip, load j of a block covers rows [j * 16 / UNROLL, +16 / UNROLL) over the trip's whole
// 32 * UNROLL bytes of each (lane l: row j * 16 / UNROLL + l / (2 UNROLL), piece l % (2 UNROLL)), so one load
// instruction reads 16 / UNROLL runs of 32 * UNROLL contiguous bytes instead of 16 runs of 32.
const uint PIECES = 2 * UNROLL;       // 16-byte pieces of a row in a trip
const uint LOAD_ROWS = 32 / PIECES;  // rows one wide load covers

/// The subgroup's shared-memory stores before this are visible to its loads after it. Shared memory only:
/// subgroupBarrier() also orders buffer memory, and a driver may implement that with a fence that waits for every
/// load in flight, here the next trip's loads of B (results/h200/notes.md, issue 18 step 11).
void staged() {
  controlBarrier(gl_ScopeSubgroup, gl_ScopeSubgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
}

/// Values k .. k + 7 of row m of op(A), packed in pairs.
uvec4 op_a_group(uint z, uint m, uint k) {
  if (A_ROWS_VECTOR) return a_vec[index_op_a(z, m, k) / 8];
  float16_t e[8];
  [[unroll]] for (uint j = 0; j < 8; ++j) e[j] = a_data[index_op_a(z, m, k + j)];
  return uvec4(packFloat2x16(f16vec2(e[0], e[1])), packFloat2x16(f16vec2(e[2], e[3])),
               packFloat2x16(f16vec2(e[4], e[5])), packFloat2x16(f16vec2(e[6], e[7])));
}

/// Issues the loads of `count` fragments from k0 on into buffer `buf` (values of op(A) with k < k_low are zero).
void fetch(uint buf, uint z, uint k0, uint count, uint k_low, uint lane) {
  const uint r = lane / 2, h = (lane % 2) * 8;
  const uint wide_row = lane / PIECES, wide_k = (lane % PIECES) * 8;
  [[unroll]] for (uint f = 0; f < FRAGS; ++f)
    [[unroll]] for (uint u = 0; u < count; ++u) {
      if (!live(f)) continue;
      if (WIDE && count == UNROLL) {
        reg_b[buf][f * UNROLL + u] = b_vec[index_op_b(z, k0 + wide_k, row0(f) + u * LOAD_ROWS + wide_row) / 8];
      } else if (TRANS_B) {
        reg_b[buf][f * UNROLL + u] = b_vec[index_op_b(z, k0 + u * 16 + h, row0(f) + r) / 8];
      } else {  // B stored K x N: lane l loads half a row of k (row l / 2, columns (l % 2) * 8 onwards)
        reg_b[buf][f * UNROLL + u] = b_vec[index_op_b(z, k0 + u * 16 + r, row0(f) + h) / 8];
      }
    }
  [[unroll]] for (uint i = 0; i < A_PER; ++i) {
    const uint g = lane + 32 * i;
    const uint u = g / (2 * M_ROWS), m = (g / 2) % M_ROWS;
    const uint k = k0 + u * 16 + (g % 2) * 8;
    reg_a[buf][i] = u < count && k >= k_low ? op_a_group(z, m, k) : uvec4(0);
  }
}

/// Stages fragment u of the trip in buffer `buf` (of `count` fragments) in the subgroup's shared memory and
/// multiplies it into the sums.
void multiply(uint buf, uint u, uint count, uint sg, uint lane) {
  const uint r = lane / 2, h = lane % 2;
  if (WIDE && count == UNROLL) {
    // This lane holds fragment u's pieces only where its piece of the row falls in it: 16 / UNROLL rows' worth.
    const uint piece = lane % PIECES;
    if (piece / 2 == u) {
      [[unroll]] for (uint f = 0; f < FRAGS; ++f) {
        [[unroll]] for (uint j = 0; j < UNROLL; ++j) {
          stage_b[(sg * FRAGS + f) * B_SLOT + (j * LOAD_ROWS + lane / PIECES) * ROW + piece % 2] =
              reg_b[buf][f * UNROLL + j];
        }
      }
    }
  } else {
    [[unroll]] for (uint f = 0; f < FRAGS; ++f) {
      stage_b[(sg * FRAGS + f) * B_SLOT + r * ROW + h] = reg_b[buf][f * UNROLL + u];
    }
  }
  [[unroll]] for (uint i = 0; i < A_PER; ++i) {
    const uint g = lane + 32 * i;
    if (g / (2 * M_ROWS) == u) stage_a[sg * A_SLOT + ((g / 2) % M_ROWS) * ROW + g % 2] = reg_a[buf][i];
  }
  staged();
  FRAG_B a_frag;
  coopMatLoad(a_frag, stage_a, sg * A_SLOT, ROW, gl_CooperativeMatrixLayoutColumnMajor);
  [[unroll]] for (uint f = 0; f < FRAGS; ++f) {
    if (!live(f)) continue;
    FRAG_A b_frag;
    coopMatLoad(b_frag, stage_b, (sg * FRAGS + f) * B_SLOT, ROW,
                TRANS_B ? gl_CooperativeMatrixLayoutRowMajor : gl_CooperativeMatrixLayoutColumnMajor);
    acc[f] = coopMatMulAdd(b_frag, a_frag, acc[f]);
  }
  staged();  // read before the next fragment is stored
}

// REGS: each lane puts its own loads in its fragments' elements, with no shared-memory round trip. Which elements
// of a fragment a lane holds is the driver's choice; the layout assumed here is the matrix units' on NVIDIA: lane
// l = 4 g + t holds, of an A fragment (rows n, columns k), elements 0-7 at (g, 2t), (g, 2t+1), (g, 2t+8),
// (g, 2t+9), (g+8, 2t), (g+8, 2t+1), (g+8, 2t+8), (g+8, 2t+9), and of a B fragment (rows k, columns m) the same
// with rows and columns swapped (read on the H200 by tests/gpu/test_rowmma.cpp's probe, results/h200/notes.md). The sum
// over k does not depend on which k a column holds as long as both operands
// agree, so a pair of fragments covers 32 values of k with each lane's 8 contiguous values of a row: columns 2t,
// 2t+1, 2t+8, 2t+9 of fragment h of the pair hold k = 8t + 4h + 0..3. Each subgroup checks the layout at its start
// (layout_is_assumed); where it differs, the subgroup stages its fragments as REGS = 0 does.
// B stored K x N: a load is values of n at one k, so the rows of the workgroup's blocks are interleaved instead: row g
// of block f holds n = n_first + 2 FRAGS g + 2 f and row g + 8 the next n, so that a lane's 2 FRAGS values of n at one
// k (one load of FRAGS words) are rows g and g + 8 of every block, and lanes 4 g + t (g = 0..7) read 32 FRAGS
// contiguous bytes of k row 8 t + j. Word f of the lane's load at k row j of pair q is word (8 q + j) FRAGS + f of
// the trip's registers (a trip is 8 loads a pair: FRAGS x UNROLL uvec4s). One or two blocks a workgroup give the grid
// 4 or 2 times the workgroups of four (a K x N decoding product at N = 4096 had to split k to fill the GPU). The sums
// come out with their rows interleaved, which the final loop undoes. Only where a workgroup's blocks are whole and its
// k range is whole trips (kxn_regs_fit): the staged path, for what is left over, keeps the rows as they are.
const uint PAIRS = UNROLL / 2;  // fragment pairs (32 values of k) a trip
const uint A_HALVES = M_ROWS > 8 ? 2 : 1;   // rows g and g + 8 of op(A)
uvec4 reg_pair_a[2][PAIRS * A_HALVES];
// op(A) stored K x M (TRANS_A) with rows of 8 or 16 values on 16 bytes: a lane's 8 k of one row of op(A) would be 8
// two-byte loads, so instead lane l loads row k0 + 32 q + l of A as stored (one 16-byte load a half of 8 m) and the
// pair's two fragments of op(A)^T go through the subgroup's B slot (free in the trips), each stored row at the
// fragment row that holds its k in the REGS order, and load from there (rows k, columns m: row-major).
// (Selects, not &&: glslang makes code of && between specialization constants, which no other function can read.)
const bool A_KXM_ROWS = TRANS_A ? (ALIGNED_A ? M_ROWS % 8 == 0 : false) : false;

/// Whether this subgroup's fragments hold the elements the REGS layout assumes: a fragment of distinct bit patterns
/// (0x3C00 | 16 row + column, normal numbers in f16 and bf16) loaded from shared memory, every element compared.
bool layout_is_assumed(uint sg, uint lane) {
  const uint slot = sg * FRAGS * B_SLOT;  // 16 rows of 16 values: 32 of the slot's 64 uvec4s
  const uint v = 0x3C00u | (lane * 8);
  stage_b[slot + lane] =
      uvec4(v | ((v + 1) << 16), (v + 2) | ((v + 3) << 16), (v + 4) | ((v + 5) << 16), (v + 6) | ((v + 7) << 16));
  if (lane == 0) layout_differs[sg] = 0;
  staged();
  FRAG_A fa;
  FRAG_B fb;
  coopMatLoad(fa, stage_b, slot, 2, gl_CooperativeMatrixLayoutRowMajor);
  coopMatLoad(fb, stage_b, slot, 2, gl_CooperativeMatrixLayoutRowMajor);
  bool same = fa.length() == 8 && fb.length() == 8;
  if (same) {
    const uint g = lane / 4, t = lane % 4;
    [[unroll]] for (uint i = 0; i < 8; ++i) {
      const uint a_row = g + 8 * (i / 4), a_col = 2 * t + i % 2 + 8 * ((i / 2) % 2);
      const uint b_row = a_col, b_col = a_row;
      same = same && (packFloat2x16(f16vec2(fa[i], fa[i])) & 0xFFFFu) == (0x3C00u | (a_row * 16 + a_col));
      same = same && (packFloat2x16(f16vec2(fb[i], fb[i])) & 0xFFFFu) == (0x3C00u | (b_row * 16 + b_col));
    }
  }
  if (!same) layout_differs[sg] = 1;
  staged();
  const bool assumed = layout_differs[sg] == 0;
  staged();  // read before the slot is used again
  return assumed;
}

/// REGS: issues a trip's loads from k0 on into buffer `buf`: per pair of fragments and block, rows g and g + 8 of B,
/// and rows g (and g + 8) of op(A), 16 bytes each at k0 + 32 q + 8 t.
void fetch_pairs(uint buf, uint z, uint k0, uint lane) {
  const uint g = lane / 4, k = k0 + 8 * (lane % 4);
  if (TRANS_B) {
    [[unroll]] for (uint f = 0; f < FRAGS; ++f)
      [[unroll]] for (uint q = 0; q < PAIRS; ++q) {
        if (!live(f)) continue;
        reg_b[buf][f * UNROLL + 2 * q] = b_vec[index_op_b(z, k + 32 * q, row0(f) + g) / 8];
        reg_b[buf][f * UNROLL + 2 * q + 1] = b_vec[index_op_b(z, k + 32 * q, row0(f) + g + 8) / 8];
      }
  } else {  // K x N: per pair, k rows k + j (j = 0..7), values n_first + 2 FRAGS g onwards
    [[unroll]] for (uint q = 0; q < PAIRS; ++q)
      [[unroll]] for (uint j = 0; j < 8; ++j) {
        const uint at = index_op_b(z, k + 32 * q + j, n_first + 2 * FRAGS * g), w = (8 * q + j) * FRAGS;
        if (FRAGS == 4) {
          reg_b[buf][w / 4] = b_vec[at / 8];
        } else if (FRAGS == 2) {
          const uvec2 v = b_pairs[at / 4];
          reg_b[buf][w / 4][w % 4] = v.x;
          reg_b[buf][w / 4][w % 4 + 1] = v.y;
        } else {
          reg_b[buf][w / 4][w % 4] = b_words[at / 2];
        }
      }
  }
  if (A_KXM_ROWS) {
    [[unroll]] for (uint q = 0; q < PAIRS; ++q)
      [[unroll]] for (uint h = 0; h < A_HALVES; ++h)
        reg_pair_a[buf][q * A_HALVES + h] = a_vec[index_op_a(z, 8 * h, k0 + 32 * q + lane) / 8];
    return;
  }
  // Lanes past row M - 1 load that row again: it lands in columns M..15 of the product, which are never stored
  // (columns of a product do not mix). A branch around their loads cost 15 % at M = 5 on the H200, zeroing them
  // with a select 10 % (results/h200/notes.md, issue 18 steps 27-30).
  [[unroll]] for (uint q = 0; q < PAIRS; ++q)
    [[unroll]] for (uint h = 0; h < A_HALVES; ++h)
      reg_pair_a[buf][q * A_HALVES + h] = op_a_group(z, min(g + 8 * h, M_ROWS - 1), k + 32 * q);
}

/// A_KXM_ROWS: the subgroup's slot for a pair's two fragments of op(A)^T (16 rows of 2 uvec4s each), and the stores
/// of pair q of buffer `buf` there: row k0 + 32 q + l (l = 8 t + 4 h + i) is row 2 t + i % 2 + 8 (i / 2) of fragment
/// h, where the REGS order puts that k (see multiply_pair).
uint kxm_slot() { return (gl_LocalInvocationID.x / 32) * FRAGS * B_SLOT; }
void stage_kxm_pair(uint buf, uint q) {
  const uint lane = gl_LocalInvocationID.x % 32;
  const uint t = lane / 8, h = (lane % 8) / 4, i = lane % 4;
  const uint row = 2 * t + i % 2 + 8 * (i / 2);
  [[unroll]] for (uint part = 0; part < A_HALVES; ++part)
    stage_b[kxm_slot() + h * 32 + row * 2 + part] = reg_pair_a[buf][q * A_HALVES + part];
  staged();
}

// Elements 2 j and 2 j + 1 of `frag` from the two 16-bit values packed in `word`.
#define PUT_PAIR(frag, j, word)                  \
  {                                              \
    const f16vec2 pair_ = unpackFloat2x16(word); \
    frag[2 * (j)] = pair_.x;                     \
    frag[2 * (j) + 1] = pair_.y;                 \
  }

/// REGS: multiplies pair q of the trip in buffer `buf` into the sums, fragment h of the pair from words 2h, 2h + 1.
void multiply_pair(uint buf, uint q) {
  if (A_KXM_ROWS) stage_kxm_pair(buf, q);
  const uvec4 a_g = reg_pair_a[buf][q * A_HALVES];
  const uvec4 a_g8 = A_HALVES > 1 ? reg_pair_a[buf][q * A_HALVES + 1] : uvec4(0);
  [[unroll]] for (uint h = 0; h < 2; ++h) {
    FRAG_B a_frag;
    if (A_KXM_ROWS) {
      coopMatLoad(a_frag, stage_b, kxm_slot() + h * 32, 2, gl_CooperativeMatrixLayoutRowMajor);
    } else {
      PUT_PAIR(a_frag, 0, h == 0 ? a_g.x : a_g.z);
      PUT_PAIR(a_frag, 1, h == 0 ? a_g.y : a_g.w);
      PUT_PAIR(a_frag, 2, h == 0 ? a_g8.x : a_g8.z);
      PUT_PAIR(a_frag, 3, h == 0 ? a_g8.y : a_g8.w);
    }
    [[unroll]] for (uint f = 0; f < FRAGS; ++f) {
      if (!live(f)) continue;
      FRAG_A b_frag;
      if (TRANS_B) {
        const uvec4 b_g = reg_b[buf][f * UNROLL + 2 * q], b_g8 = reg_b[buf][f * UNROLL + 2 * q + 1];
        PUT_PAIR(b_frag, 0, h == 0 ? b_g.x : b_g.z);
        PUT_PAIR(b_frag, 1, h == 0 ? b_g.y : b_g.w);
        PUT_PAIR(b_frag, 2, h == 0 ? b_g8.x : b_g8.z);
        PUT_PAIR(b_frag, 3, h == 0 ? b_g8.y : b_g8.w);
      } else {
        // Column c of the fragment (k = k0 + 8 t + 4 h + c) from load 4 h + c: its word f holds rows g and g + 8.
        [[unroll]] for (uint c = 0; c < 4; ++c) {
          const uint w = (8 * q + 4 * h + c) * FRAGS + f;
          const f16vec2 rows = unpackFloat2x16(reg_b[buf][w / 4][w % 4]);
          b_frag[c] = rows.x;
          b_frag[4 + c] = rows.y;
        }
      }
      acc[f] = coopMatMulAdd(b_frag, a_frag, acc[f]);
    }
  }
  if (A_KXM_ROWS) staged();  // the slot read before the next pair is stored
}

/// A whole trip's loads into buffer `buf`, and its multiplies, the REGS way or staged.
void fetch_trip(bool regs, uint buf, uint z, uint k0, uint lane) {
  if (regs) {
    fetch_pairs(buf, z, k0, lane);
  } else {
    fetch(buf, z, k0, UNROLL, 0, lane);
  }
}
void multiply_trip(bool regs, uint buf, uint sg, uint lane) {
  if (regs) {
    [[unroll]] for (uint q = 0; q < PAIRS; ++q) multiply_pair(buf, q);
  } else {
    [[unroll]] for (uint u = 0; u < UNROLL; ++u) multiply(buf, u, UNROLL, sg, lane);
  }
}

void main() {
  const uint lid = gl_LocalInvocationID.x, sg = lid / 32, lane = lid % 32;
  const uint z = gl_WorkGroupID.z + p.base_z;
  // Workgroup x: block of rows x / SPLIT, k range x % SPLIT (split-k: raw sums to the range's scratch plane).
  const uint block = (gl_WorkGroupID.x + p.base_x) / SPLIT, range = (gl_WorkGroupID.x + p.base_x) % SPLIT;
  const uint k_begin = range * p.k_split, k_end = min(p.K, k_begin + p.k_split);
  n_first = block * 16 * FRAGS;
  [[unroll]] for (uint f = 0; f < FRAGS; ++f) acc[f] = FRAG_ACC(0.0);
  for (uint i = lane; i < A_SLOT; i += 32) stage_a[sg * A_SLOT + i] = uvec4(0);
  staged();
  const uint whole = (k_end - k_begin) / 16;  // whole k fragments of the range (ranges are multiples of 32 terms)
  const uint trips = whole / (SUBGROUPS * UNROLL);
  // B stored K x N: the interleaved rows need whole blocks and a range of whole trips (uniform a workgroup).
  const bool kxn_regs_fit =
      TRANS_B || (n_first + 16 * FRAGS <= p.N && whole == trips * SUBGROUPS * UNROLL &&
                  (k_end != p.K || p.K % 16 == 0));
  const bool regs = REGS && kxn_regs_fit && layout_is_assumed(sg, lane);

  if (p.alpha != 0.0) {  // alpha = 0: A and B are never read (NaN in them must not leak)
    // Workgroup w starts at trip w % trips and wraps around, so that the workgroups resident at once read
    // different k of their rows, not all the same k in lockstep (5-6 % faster at M = 1 and 4 on the H200:
    // results/h200/notes.md, issue 18 step 12).
    const uint first = trips > 0 ? block % trips : 0;
#define TRIP_K(t) (k_begin + ((((t) + first) % trips) * SUBGROUPS + sg) * UNROLL * 16)
    // Trips in pairs, buffer 0 then 1, each trip's successor fetched before it is multiplied.
    if (trips > 0) fetch_trip(regs, 0, z, TRIP_K(0), lane);
    for (uint t = 0; t < trips; t += 2) {
      if (t + 1 < trips) fetch_trip(regs, 1, z, TRIP_K(t + 1), lane);
      multiply_trip(regs, 0, sg, lane);
      if (t + 1 < trips) {
        if (t + 2 < trips) fetch_trip(regs, 0, z, TRIP_K(t + 2), lane);
        multiply_trip(regs, 1, sg, lane);
      }
    }
    // Whole fragments left over (fewer than a trip's), one at a time round the subgroups, then the partial one
    // (last range only: it ends at K, its op(A) values of the range's whole fragments zero).
    const uint extra = k_end == p.K && p.K % 16 != 0 ? 1 : 0;
    const uint k_whole = k_begin + whole * 16;
    for (uint j = trips * SUBGROUPS * UNROLL + sg; j < whole + extra; j += SUBGROUPS) {
      fetch(0, z, j < whole ? k_begin + j * 16 : p.K - 16, 1, j < whole ? 0 : k_whole, lane);
      multiply(0, 0, 1, sg, lane);
    }
  }

  // Each subgroup's 16 x 16 sums (rows n, columns m; 4 uvec4s a row) over its staging slots, then the
  // subgroups' sums in order; a subgroup that built K x N fragments in registers has its blocks' rows interleaved.
  [[unroll]] for (uint f = 0; f < FRAGS; ++f)
    coopMatStore(acc[f], stage_b, (sg * FRAGS + f) * B_SLOT, 4, gl_CooperativeMatrixLayoutRowMajor);
  barrier();
  for (uint e = lid; e < FRAGS * M_ROWS * 16; e += gl_WorkGroupSize.x) {
    const uint f = e / (M_ROWS * 16), m = (e / 16) % M_ROWS, r = e % 16;
    const uint n = row0(f) + r;
    if (!live(f) || n < n_first + 16 * f) continue;  // a row of the block before (last block only)
    const uint at = r * 16 + m;  // the value's index within a block's sums
    // Interleaved (K x N in registers): n = n_first + 2 FRAGS g + 2 f' + half is row g + 8 half of block f'.
    const uint n_local = n - n_first;
    const uint f_kxn = (n_local % (2 * FRAGS)) / 2, at_kxn = (n_local / (2 * FRAGS) + 8 * (n_local % 2)) * 16 + m;
    precise float sum = 0.0;
    for (uint s = 0; s < SUBGROUPS; ++s) {
      const bool interleaved = !TRANS_B && REGS && kxn_regs_fit && layout_differs[s] == 0;
      const uint slot = (s * FRAGS + (interleaved ? f_kxn : f)) * B_SLOT, i = interleaved ? at_kxn : at;
      const float part = uintBitsToFloat(stage_b[slot + i / 4][i % 4]);
      sum = s == 0 ? part : sum + part;
    }
    if (SPLIT > 1) {
      scratch_data[scratch_index(z, range, m, n)] = sum;
    } else {
      c_data[c_index(z, m, n)] = finish(sum, z, m, n);
    }
  }
}
