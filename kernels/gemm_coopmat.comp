#version 450
// gemm_coopmat: GEMM on the matrix units through VK_KHR_cooperative_matrix, 16 x 16 x 16 fragments with f32
// accumulation, subgroups of 32. Written for f16; the bf16 SPIR-V is this kernel's with its 16-bit float type
// retyped to bfloat16 (scripts/spirv_bf16.py), which is sound because the kernel only moves and multiplies those
// values. Built with glslang 15 into kernels/prebuilt/ (scripts/regen-prebuilt.sh) where the system glslang
// lacks GL_KHR_cooperative_matrix.
//
// A workgroup owns TILES BM x BN tiles of C side by side in n and computes them in turn; SG_M x SG_N subgroups each own
// a (BM/SG_M) x (BN/SG_N) block of 16 x 16 f32 accumulators of the tile. Each k step copies the A and B tiles from the
// operand buffers, in their own 16-bit type and without conversion, into padded shared memory in their stored
// orientation (bounds and leading dimensions handled there; groups of 8 contiguous elements move as one 16-byte load
// where rows are aligned and always as one 16-byte store, and the next step is loaded into registers during the
// multiply), then every subgroup loads its fragments (column-major for a transposed operand) and multiplies. With
// STAGES = 2 the tiles are double-buffered: the next step is stored into the other buffer right after the multiply, so
// one barrier per step suffices (two with STAGES = 1: before the multiply, and before the tiles are overwritten).
// Accumulators leave through the tiles' shared memory one fragment at a time, so alpha, beta, bias, activation and
// edges are plain code (common/gemm_common.glsl). With SPLIT > 1, workgroup z covers product z / SPLIT and k range z %
// SPLIT and writes raw sums to the scratch planes. Built with AB_PLANES it reads both operands from the planes the
// aligning pre-pass (align_planes.comp) wrote to the scratch buffer: rows that start on 16 bytes and K padded to whole
// steps, so every tile stages on the fast path.
//
// Tuned specialization constants (id: meaning):
//   0: workgroup size = SG_M * SG_N * 32   1: BM   2: BN   3: BK (multiple of 16)   4: SG_M   5: SG_N
//   6: STAGES, shared-memory buffers of the A and B tiles (1 or 2)
//   7: TILES, tiles of C a workgroup owns side by side in n and computes in turn: the first k step of the next is
//      loaded before the current one is written out, so where the k loop is short (small K) C's stores overlap the
//      next tile's loads instead of waiting for a new workgroup (results/h200/notes.md, issue 43 step 43)

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
layout(constant_id = 6) const uint STAGES = 1;
layout(constant_id = 7) const uint TILES = 1;

#define COOPMAT_OPERANDS 1
#if defined(AB_PLANES)
// Both operands from the aligning pre-pass's planes (kernels/align_planes.comp) in the scratch buffer: rows of whole
// 16-byte groups, K padded with zeros to a multiple of 64 (common/aligned_planes.glsl), one k range.
#define BINDING_A 4
#define BINDING_B 4
#else
#define BINDING_A 0
#define BINDING_B 1
#endif
layout(std430, binding = BINDING_A) readonly buffer BufA { float16_t a_data[]; };
layout(std430, binding = BINDING_B) readonly buffer BufB { float16_t b_data[]; };
// The same buffers as 16-byte vectors of 8 elements, for aligned rows.
layout(std430, binding = BINDING_A) readonly buffer BufA8 { uvec4 a_vec[]; };
layout(std430, binding = BINDING_B) readonly buffer BufB8 { uvec4 b_vec[]; };
#if !defined(BLOCK_OPERANDS)
// And as 32-bit words, for whole groups of rows that are only 2-byte aligned.
layout(std430, binding = BINDING_A) readonly buffer BufA2 { uint a_pairs[]; };
layout(std430, binding = BINDING_B) readonly buffer BufB2 { uint b_pairs[]; };
#endif
#include "common/gemm_common.glsl"
#if defined(BLOCK_OPERANDS)
// B in ggml's blocks (stored N x K): each group of 8 k of a row lies in one block, decoded while staging (scale x
// code rounded to f16, within the f16 input bound the quantized types are held to).
#include "common/quant_blocks.glsl"
// 1024's f16 bits in both halves: a byte OR-ed into a half's mantissa gives 1024 + byte exactly.
const uint HALF_1024_PAIR = 0x64006400u;
/// The two low bytes of w, each code + CODE_BIAS - 2^23 (the biased byte of quant_blocks.glsl), times the f16
/// scale, packed as two f16: the same rounding as the f32 product rounded to f16, without conversions.
uint scaled_code_pair(uint w, f16vec2 scale) {
  const uint halves = HALF_1024_PAIR | (w & 0xffu) | ((w << 8) & 0xff0000u);
  const f16vec2 code = unpackFloat2x16(halves) - f16vec2(float16_t(1024.0 + (CODE_BIAS - 8388608.0)));
  return packFloat2x16(code * scale);
}
#if defined(B_PLANE)
// B decoded once by the pre-pass into f16 rows of K (quant_blocks.glsl's plane_index): 16-byte groups, aligned.
layout(std430, binding = 4) readonly buffer BufPlane8 { uvec4 plane_vec[]; };
#endif
#if defined(A_F16)
/// Group g of A (8 elements at element 8 g): as stored.
uvec4 a_group_at(uint g) { return a_vec[g]; }
float16_t a_at(uint i) { return a_data[i]; }
/// A's groups of 8 are whole 16-byte vectors.
bool a_vectors() { return ALIGNED_A; }
#else
// f32 activations are rounded to f16 while staging (within the quantized types' f16 bound), so the f16 fragments
// serve them as ggml's f16 and q8_1 paths do.
layout(std430, binding = 0) readonly buffer BufA4 { vec4 a_f32x4[]; };
uvec4 a_group_at(uint g) {
  const vec4 lo = a_f32x4[2 * g], hi = a_f32x4[2 * g + 1];
  return uvec4(packHalf2x16(lo.xy), packHalf2x16(lo.zw), packHalf2x16(hi.xy), packHalf2x16(hi.zw));
}
float16_t a_at(uint i) { return float16_t(load_a(i)); }
/// A's groups of 8 f32 are two whole 16-byte vectors where its rows start on 32 bytes (ALIGNED_A says 16).
bool a_vectors() { return ALIGNED_A && p.lda % 8 == 0 && p.off_a % 8 == 0 && p.stride_a % 8 == 0; }
#endif
#endif

#if defined(B_PLANE) || defined(AB_PLANES)
#define ONE_K_RANGE 1  // binding 4 holds a pre-pass's output, so no split-k planes
#endif
// The leading dimensions the tiles are staged from.
#if defined(AB_PLANES)
#define STAGED_LDA plane_ld_a()
#define STAGED_LDB plane_ld_b()
#else
#define STAGED_LDA p.lda
#define STAGED_LDB p.ldb
#endif

const uint WG_SIZE = SG_M * SG_N * 32;
const uint WM = BM / SG_M;  // rows of C per subgroup
const uint WN = BN / SG_N;  // columns of C per subgroup
const uint FM = WM / 16;    // accumulator fragments down
const uint FN = WN / 16;    // and across

// Each tile sits in shared memory as it sits in its buffer: rows along the operand's contiguous direction (k
// for A stored M x K, m for A stored K x M; n for B stored K x N, k for B stored N x K), so that every group of
// 8 elements moves as one 16-byte store, and fragments of a transposed operand load column-major. Rows are
// padded by 8 elements (16 bytes) to keep fragment loads and the staging stores off one bank.
const uint A_RUN = TRANS_A ? BM : BK;  // tile extent along A's contiguous direction
const uint B_RUN = TRANS_B ? BK : BN;
const uint A_STRIDE = A_RUN + 8;       // elements per shared row
const uint B_STRIDE = B_RUN + 8;
// Sized for either orientation: BM * BK + 8 * (BM + BK) >= rows * (run + 8) both ways; STAGES buffers each.
const uint A_TILE = (BM * BK + 8 * (BM + BK)) / 8;  // uvec4s per buffer
const uint B_TILE = (BK * BN + 8 * (BK + BN)) / 8;
const uint B_BASE = STAGES * A_TILE;                // the B buffers follow the A buffers
// Accumulators leave through the same memory once the k loop is over: a 16 x 16 fragment of f32 per subgroup,
// rows of OUT_STRIDE floats (OUT_STRIDE / 4 uvec4s). Sharing it lets 8-subgroup tiles double-buffer at BK 32.
const uint OUT_STRIDE = 16 + 4;
const uint OUT_TILE = SG_M * SG_N * 16 * OUT_STRIDE / 4;
const uint TILE_MEMORY = STAGES * (A_TILE + B_TILE);
shared uvec4 smem[TILE_MEMORY > OUT_TILE ? TILE_MEMORY : OUT_TILE];

// The next step's groups are loaded into registers while the current step is multiplied.
const uint A_GROUPS = BM * BK / 8;
const uint B_GROUPS = BK * BN / 8;
const uint A_PER = (A_GROUPS + WG_SIZE - 1) / WG_SIZE;
const uint B_PER = (B_GROUPS + WG_SIZE - 1) / WG_SIZE;
uvec4 reg_a[A_PER];
uvec4 reg_b[B_PER];

uvec4 pack8(float16_t v[8]) {
  return uvec4(packFloat2x16(f16vec2(v[0], v[1])), packFloat2x16(f16vec2(v[2], v[3])),
               packFloat2x16(f16vec2(v[4], v[5])), packFloat2x16(f16vec2(v[6], v[7])));
}

// Group g of the A tile: tile row r and column kk of its first element; the group runs along the contiguous
// direction (8 columns for A as stored, 8 rows for A transposed). Its shared-memory slot is
// (across * A_STRIDE + along) / 8.
void a_group(uint g, out uint r, out uint kk) {
  const uint along = (g % (A_RUN / 8)) * 8, across = g / (A_RUN / 8);
  if (TRANS_A) { r = along; kk = across; } else { r = across; kk = along; }
}
void b_group(uint g, out uint kk, out uint c) {
  const uint along = (g % (B_RUN / 8)) * 8, across = g / (B_RUN / 8);
  if (TRANS_B) { kk = along; c = across; } else { kk = across; c = along; }
}
uint a_slot(uint g) { return (g / (A_RUN / 8)) * (A_STRIDE / 8) + g % (A_RUN / 8); }
uint b_slot(uint g) { return (g / (B_RUN / 8)) * (B_STRIDE / 8) + g % (B_RUN / 8); }

// Tiles of aligned operands stage whole steps without bounds checks: each group's uvec4 index at the range's first
// step, advanced by a constant a step (as warptile does: issue 22 step 5). Edge tiles take the same path where
// their rows of A past M (columns of B past N) can read a real row (column) instead: the last one, or for an operand
// stored along m (n) the last whole group of 8, which needs M (N) a multiple of 8. What they load only reaches C's
// rows (columns) past the edge, which are never stored, so the edge costs no more than the interior.
bool fast_steps;
uint k_first;
uint a_first[A_PER], b_first[B_PER];

void set_first_indices(uint z, uint row0, uint col0, uint k_begin, uint lid) {
  const bool rows_clamp = row0 + BM <= p.M || !TRANS_A || p.M % 8 == 0;
  const bool cols_clamp = col0 + BN <= p.N || TRANS_B || p.N % 8 == 0;
#if defined(BLOCK_OPERANDS) && defined(B_PLANE)
  fast_steps = a_vectors() && rows_clamp && cols_clamp;  // the plane's rows are whole 16-byte groups
#elif defined(BLOCK_OPERANDS)
  fast_steps = a_vectors() && rows_clamp;  // B's blocks are decoded group by group on every path
#elif defined(AB_PLANES)
  fast_steps = true;  // the planes' rows run to whole groups (zeros past M and N), K to whole steps
#else
  fast_steps = ALIGNED_A && ALIGNED_B && rows_clamp && cols_clamp;
#endif
#if defined(AB_PLANES)
  const uint last_row = TRANS_A ? round8(p.M) - 8 : p.M - 1;  // the last row a group may start at
  const uint last_col = TRANS_B ? p.N - 1 : round8(p.N) - 8;
#else
  const uint last_row = TRANS_A ? max(p.M, 8u) - 8 : p.M - 1;  // the last row a group may start at
  const uint last_col = TRANS_B ? p.N - 1 : max(p.N, 8u) - 8;
#endif
  k_first = k_begin;
  [[unroll]] for (uint j = 0; j < A_PER; ++j) {
    uint r, kk;
    a_group(lid + j * WG_SIZE, r, kk);
    a_first[j] = index_op_a(z, min(row0 + r, last_row), k_begin + kk) / 8;
  }
  [[unroll]] for (uint j = 0; j < B_PER; ++j) {
    uint kk, c;
    b_group(lid + j * WG_SIZE, kk, c);
#if defined(B_PLANE)
    b_first[j] = plane_index(z, k_begin + kk, min(col0 + c, last_col)) / 8;
#else
    b_first[j] = index_op_b(z, k_begin + kk, min(col0 + c, last_col)) / 8;
#endif
  }
}

#if defined(BLOCK_OPERANDS) && !defined(B_PLANE)
// B's groups between load_step and store_step: the words holding the block's scale and the group's 8 code bytes
// (q8_0) or the 8 code bytes whose low or high nibbles are its codes (q4_0), as loaded; where the codes start mid-word
// (b_mid) they span three words and the scale is the low half of its word, else two and the high half.
bool b_mid[B_PER];
bool b_high[B_PER];  // q4_0: the group's codes are the high nibbles (codes 16..31 of its block)

/// Loads group j's words for B's element index `first` (8 k of one row, within one block); zeros where not valid,
/// which decode to zeros (a zero scale).
void load_b_words(uint j, bool valid, uint first) {
  const uint byte0 = (first / 32) * BLOCK_BYTES, e0 = first % 32;
#if defined(B_Q8)
  const uint at = byte0 + 2 + e0;
#else
  const uint at = byte0 + 2 + (e0 & 15u);
  b_high[j] = e0 >= 16;
#endif
  b_mid[j] = (at & 2u) != 0u;
  const uint w = at >> 2;
  reg_b[j] = valid ? uvec4(b_words[byte0 >> 2], b_words[w], b_words[w + 1], b_words[b_mid[j] ? w + 2 : w + 1])
                   : uvec4(0);
}

/// Group j of B decoded from its words: 8 f16 values scale x code.
uvec4 decoded_b_group(uint j) {
  const uvec4 r = reg_b[j];
  const bool mid = b_mid[j];
  const uint scale_bits = mid ? r.x & 0xffffu : r.x >> 16;
  const f16vec2 scale = unpackFloat2x16(scale_bits | (scale_bits << 16));
  uint w0 = mid ? (r.y >> 16) | (r.z << 16) : r.y;
  uint w1 = mid ? (r.z >> 16) | (r.w << 16) : r.z;
#if defined(B_Q8)
  w0 ^= Q8_SIGN_BITS, w1 ^= Q8_SIGN_BITS;
#else
  const uint shift = b_high[j] ? 4 : 0;
  w0 = (w0 >> shift) & 0x0f0f0f0fu, w1 = (w1 >> shift) & 0x0f0f0f0fu;
#endif
  return uvec4(scaled_code_pair(w0, scale), scaled_code_pair(w0 >> 16, scale), scaled_code_pair(w1, scale),
               scaled_code_pair(w1 >> 16, scale));
}
#endif

#if defined(BLOCK_OPERANDS)
void load_step(uint z, uint row0, uint col0, uint k0, uint k_end, uint lid) {
  if (fast_steps && k0 + BK <= k_end) {  // uniform across the workgroup
    const uint s = (k0 - k_first) / BK;
    const uint a_step = (TRANS_A ? BK * p.lda : BK) / 8;
    [[unroll]] for (uint j = 0; j < A_PER; ++j)
      reg_a[j] = lid + j * WG_SIZE < A_GROUPS ? a_group_at(a_first[j] + s * a_step) : uvec4(0);
#if defined(B_PLANE)
    // The plane's rows are whole groups (K a multiple of 32): the step's loads issue as the dense kernel's do.
    [[unroll]] for (uint j = 0; j < B_PER; ++j)
      reg_b[j] = lid + j * WG_SIZE < B_GROUPS ? plane_vec[b_first[j] + s * (BK / 8)] : uvec4(0);
    return;
#endif
  } else {
    [[unroll]] for (uint j = 0; j < A_PER; ++j) {
      const uint g = lid + j * WG_SIZE;
      uint r, kk;
      a_group(g, r, kk);
      const uint gr = row0 + r, gk = k0 + kk;
      const bool whole = TRANS_A ? (gk < k_end && gr + 8 <= p.M) : (gr < p.M && gk + 8 <= k_end);
      if (g >= A_GROUPS) {
        reg_a[j] = uvec4(0);
      } else if (a_vectors() && whole) {
        reg_a[j] = a_group_at(index_op_a(z, gr, gk) / 8);
      } else {
        float16_t v[8];
        [[unroll]] for (uint e = 0; e < 8; ++e) {
          const uint er = TRANS_A ? gr + e : gr, ek = TRANS_A ? gk : gk + e;
          v[e] = (er < p.M && ek < k_end) ? a_at(index_op_a(z, er, ek)) : float16_t(0);
        }
        reg_a[j] = pack8(v);
      }
    }
  }
#if defined(B_PLANE)
  // Rows of K a multiple of 32 with k ranges of whole blocks: a group's 8 k are whole.
  [[unroll]] for (uint j = 0; j < B_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
    uint kk, c;
    b_group(g, kk, c);
    const uint gk = k0 + kk, gc = col0 + c;
    reg_b[j] = g < B_GROUPS && gk < k_end && gc < p.N ? plane_vec[plane_index(z, gk, gc) / 8] : uvec4(0);
  }
#else
  // Stored N x K with K a multiple of 32 and k ranges of whole blocks: a group's 8 k are whole and in one block. Only
  // the words that hold it are loaded here; store_step decodes them after this step's products, which so do not wait
  // on the loads. On a whole step every group is one (columns past N read row N - 1, as set_first_indices clamps them).
  const bool whole_step = k0 + BK <= k_end;  // uniform across the workgroup
  [[unroll]] for (uint j = 0; j < B_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
    if (whole_step) {
      load_b_words(j, g < B_GROUPS, b_first[j] * 8 + (k0 - k_first));
    } else {
      uint kk, c;
      b_group(g, kk, c);
      const uint gk = k0 + kk, gc = col0 + c;
      const bool valid = g < B_GROUPS && gk < k_end && gc < p.N;
      load_b_words(j, valid, valid ? index_op_b(z, gk, gc) : 0u);
    }
  }
#endif
}
#else
// Elements i .. i + 7 of an operand from the 32-bit words that hold them, for a whole group whose rows are not 16-byte
// aligned: words i / 2 .. i / 2 + 3, which are the group where i is even; where i is odd they start one element early,
// so each is shifted down half a word and the last element (e7, read alone) goes on top. Nothing outside the group's
// elements and the one before it is read.
uvec4 words_group(uint x0, uint x1, uint x2, uint x3, float16_t e7, bool odd) {
  if (!odd) return uvec4(x0, x1, x2, x3);
  const uint last = packFloat2x16(f16vec2(e7, float16_t(0)));
  return uvec4((x0 >> 16) | (x1 << 16), (x1 >> 16) | (x2 << 16), (x2 >> 16) | (x3 << 16), (x3 >> 16) | (last << 16));
}
uvec4 a_group_words(uint i) {
  const uint w = i >> 1;
  return words_group(a_pairs[w], a_pairs[w + 1], a_pairs[w + 2], a_pairs[w + 3], a_data[i + 7], (i & 1u) != 0u);
}
uvec4 b_group_words(uint i) {
  const uint w = i >> 1;
  return words_group(b_pairs[w], b_pairs[w + 1], b_pairs[w + 2], b_pairs[w + 3], b_data[i + 7], (i & 1u) != 0u);
}

void load_step(uint z, uint row0, uint col0, uint k0, uint k_end, uint lid) {
  if (fast_steps && k0 + BK <= k_end) {  // uniform across the workgroup
    const uint s = (k0 - k_first) / BK;
    const uint a_step = (TRANS_A ? BK * STAGED_LDA : BK) / 8, b_step = (TRANS_B ? BK : BK * STAGED_LDB) / 8;
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
    const bool whole = TRANS_A ? (gk < k_end && gr + 8 <= p.M) : (gr < p.M && gk + 8 <= k_end);
    if (g >= A_GROUPS) {
      reg_a[j] = uvec4(0);
    } else if (whole) {
      const uint i = index_op_a(z, gr, gk);
      reg_a[j] = ALIGNED_A ? a_vec[i / 8] : a_group_words(i);
    } else {
      float16_t v[8];
      [[unroll]] for (uint e = 0; e < 8; ++e) {
        const uint er = TRANS_A ? gr + e : gr, ek = TRANS_A ? gk : gk + e;
        v[e] = (er < p.M && ek < k_end) ? a_data[index_op_a(z, er, ek)] : float16_t(0);
      }
      reg_a[j] = pack8(v);
    }
  }
  [[unroll]] for (uint j = 0; j < B_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
    uint kk, c;
    b_group(g, kk, c);
    const uint gk = k0 + kk, gc = col0 + c;
    const bool whole = TRANS_B ? (gk + 8 <= k_end && gc < p.N) : (gk < k_end && gc + 8 <= p.N);
    if (g >= B_GROUPS) {
      reg_b[j] = uvec4(0);
    } else if (whole) {
      const uint i = index_op_b(z, gk, gc);
      reg_b[j] = ALIGNED_B ? b_vec[i / 8] : b_group_words(i);
    } else {
      float16_t v[8];
      [[unroll]] for (uint e = 0; e < 8; ++e) {
        const uint ek = TRANS_B ? gk + e : gk, ec = TRANS_B ? gc : gc + e;
        v[e] = (ek < k_end && ec < p.N) ? b_data[index_op_b(z, ek, ec)] : float16_t(0);
      }
      reg_b[j] = pack8(v);
    }
  }
}
#endif

void store_step(uint lid, uint stage) {
  [[unroll]] for (uint j = 0; j < A_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
    if (g < A_GROUPS) smem[stage * A_TILE + a_slot(g)] = reg_a[j];
  }
  [[unroll]] for (uint j = 0; j < B_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
#if defined(BLOCK_OPERANDS) && !defined(B_PLANE)
    if (g < B_GROUPS) smem[B_BASE + stage * B_TILE + b_slot(g)] = decoded_b_group(j);
#else
    if (g < B_GROUPS) smem[B_BASE + stage * B_TILE + b_slot(g)] = reg_b[j];
#endif
  }
}

// Where the k loop's sums go: C through the epilogue, or with SPLIT > 1 the range's scratch plane as raw sums.
layout(std430, binding = 2) buffer BufC4 { vec4 c_vec4[]; };
#if !defined(ONE_K_RANGE)
layout(std430, binding = 4) buffer BufScratch4 { vec4 scratch_vec4[]; };
#endif
void write_sum(float sum, uint z, uint range, uint gr, uint gc) {
#if !defined(ONE_K_RANGE)
  if (SPLIT > 1) {
    scratch_data[scratch_index(z, range, gr, gc)] = sum;
    return;
  }
#endif
  c_data[c_index(z, gr, gc)] = finish(sum, z, gr, gc);
}
/// Four sums of columns gc..gc+3 (gc's index a multiple of 4): one 16-byte store, the same bits as write_sum.
void write_sums4(vec4 sums, uint z, uint range, uint gr, uint gc) {
#if !defined(ONE_K_RANGE)
  if (SPLIT > 1) {
    scratch_vec4[scratch_index(z, range, gr, gc) / 4] = sums;
    return;
  }
#endif
  vec4 out_v;
  [[unroll]] for (uint e = 0; e < 4; ++e) out_v[e] = finish(sums[e], z, gr, gc + e);
  c_vec4[c_index(z, gr, gc) / 4] = out_v;
}

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint sg = lid / 32;
  const uint lane = lid % 32;
  const uint sg_row = sg / SG_N;
  const uint sg_col = sg % SG_N;
  const uint row0 = (gl_WorkGroupID.y + p.base_y) * BM;
  const uint col_first = (gl_WorkGroupID.x + p.base_x) * BN * TILES;  // the workgroup's first tile's first column
  const uint zs = gl_WorkGroupID.z + p.base_z;
  const uint z = zs / SPLIT;
  const uint range = zs % SPLIT;
  const uint k_begin = range * p.k_split;
#if defined(AB_PLANES)
  const uint k_end = plane_k();  // the padding's zeros add nothing
#else
  const uint k_end = min(p.K, k_begin + p.k_split);
#endif
  const bool products = p.alpha != 0.0 && k_begin < k_end;  // uniform across the workgroup

  // Where C's rows start on 16 bytes (or the split-k plane's), whole runs of 4 sums leave as 16-byte stores.
#if defined(ONE_K_RANGE)
  const bool out_vec4 = p.ldc % 4 == 0 && p.off_c % 4 == 0 && p.stride_c % 4 == 0;
#else
  const bool out_vec4 = SPLIT > 1 ? p.N % 4 == 0 : p.ldc % 4 == 0 && p.off_c % 4 == 0 && p.stride_c % 4 == 0;
#endif
  const uint out_base = sg * 16 * OUT_STRIDE / 4;  // uvec4s

  if (products) {
    set_first_indices(z, row0, col_first, k_begin, lid);
    load_step(z, row0, col_first, k_begin, k_end, lid);
  }
  for (uint t = 0; t < TILES; ++t) {
    const uint col0 = col_first + t * BN;
    if (col0 >= p.N) break;  // uniform: the workgroup's last tiles past N
    coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> acc[FM * FN];
    [[unroll]] for (uint f = 0; f < FM * FN; ++f) {
      acc[f] = coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
    }

    if (products) {  // the tile's first step is in registers
      if (STAGES == 2) {
        store_step(lid, 0);
        barrier();
      }
      uint stage = 0;  // the buffer the current step reads
      for (uint k0 = k_begin; k0 < k_end; k0 += BK) {
        const bool more = k0 + BK < k_end;
        if (STAGES == 1) {
          store_step(lid, 0);
          barrier();
        }
        if (more) load_step(z, row0, col0, k0 + BK, k_end, lid);
        const uint a_base = stage * A_TILE, b_base = B_BASE + stage * B_TILE;
        [[unroll]] for (uint kk = 0; kk < BK; kk += 16) {
          coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> a_frag[FM];
          // Offsets and strides count uvec4s (8 elements); a transposed operand's fragments load column-major.
          [[unroll]] for (uint i = 0; i < FM; ++i) {
            const uint r = sg_row * WM + i * 16;
            coopMatLoad(a_frag[i], smem, a_base + (TRANS_A ? kk * A_STRIDE + r : r * A_STRIDE + kk) / 8, A_STRIDE / 8,
                        TRANS_A ? gl_CooperativeMatrixLayoutColumnMajor : gl_CooperativeMatrixLayoutRowMajor);
          }
          [[unroll]] for (uint j = 0; j < FN; ++j) {
            coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> b_frag;
            const uint c = sg_col * WN + j * 16;
            coopMatLoad(b_frag, smem, b_base + (TRANS_B ? c * B_STRIDE + kk : kk * B_STRIDE + c) / 8, B_STRIDE / 8,
                        TRANS_B ? gl_CooperativeMatrixLayoutColumnMajor : gl_CooperativeMatrixLayoutRowMajor);
            [[unroll]] for (uint i = 0; i < FM; ++i)
              acc[i * FN + j] = coopMatMulAdd(a_frag[i], b_frag, acc[i * FN + j]);
          }
        }
        if (STAGES == 2) {
          // The other buffer was last read in the previous step, before the barrier that ended it.
          stage ^= 1u;
          if (more) store_step(lid, stage);
        }
        barrier();
      }
      // The next tile's first step goes out before this tile is written: its loads are in flight during the stores.
      if (t + 1 < TILES && col0 + BN < p.N) {
        set_first_indices(z, row0, col0 + BN, k_begin, lid);
        load_step(z, row0, col0 + BN, k_begin, k_end, lid);
      }
    }

    // Out through shared memory, one fragment per subgroup at a time. Where the fragment's 16 columns lie inside C
    // (or the split-k plane) and its rows start on 16 bytes, each lane moves two runs of 4 sums (a 16-byte shared
    // read and one 16-byte store each); else each lane writes 8 of its 256 elements. The k loop ended with a barrier
    // after its last fragment loads, so the tiles are free.
    [[unroll]] for (uint i = 0; i < FM; ++i) {
      [[unroll]] for (uint j = 0; j < FN; ++j) {
        coopMatStore(acc[i * FN + j], smem, out_base, OUT_STRIDE / 4, gl_CooperativeMatrixLayoutRowMajor);
        subgroupBarrier();
        const uint frag_row = row0 + sg_row * WM + i * 16, frag_col = col0 + sg_col * WN + j * 16;
        if (out_vec4 && frag_col + 16 <= p.N) {
          [[unroll]] for (uint v = lane; v < 64; v += 32) {
            const uint r = v / 4, q = (v % 4) * 4, gr = frag_row + r;
            if (gr < p.M) {
              const vec4 sums = uintBitsToFloat(smem[out_base + (r * OUT_STRIDE + q) / 4]);
              write_sums4(sums, z, range, gr, frag_col + q);
            }
          }
        } else {
          for (uint e = lane; e < 256; e += 32) {
            const uint r = e / 16, c = e % 16;
            const uint gr = frag_row + r, gc = frag_col + c;
            if (gr < p.M && gc < p.N) {
              const uint word = r * OUT_STRIDE + c;
              write_sum(uintBitsToFloat(smem[out_base + word / 4][word % 4]), z, range, gr, gc);
            }
          }
        }
        subgroupBarrier();
      }
    }
    if (t + 1 < TILES) barrier();  // every subgroup's sums read before the next tile's first step is stored
  }
}
