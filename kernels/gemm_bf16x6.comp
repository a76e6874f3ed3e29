#version 450
// gemm_bf16x6: f32 GEMM on the matrix units. Each f32 element of A and B is split once, while staging, into three
// bfloat16 parts (hi, mid, lo; each the rest rounded to nearest, so hi + mid + lo is the value exactly where the parts
// stay normal), and six products of parts run as 16 x 16 x 16 fragments with f32 sums: hi*hi, and the corrections
// lo*hi, hi*lo, mid*mid, mid*hi, hi*mid (Henry, Tang and Heinecke 2019). The units truncate their sums, so each k
// step's corrections and then its high products go into a zeroed fragment that is added to the f32 accumulator
// outside the units (rounded to nearest): what src/verify/split_model.hpp models as bf16x6 with one accumulator.
// Written with float16_t fragments; the SPIR-V is retyped to bfloat16 by scripts/spirv_bf16.py (the kernel only
// moves and multiplies those values: the parts are made with integer and f32 arithmetic), and built with glslang 15
// into kernels/prebuilt/ (scripts/regen-prebuilt.sh).
//
// Tiles, subgroups, staging and the output path are gemm_coopmat.comp's, with three part tiles per operand in shared
// memory and groups of 8 f32 elements loaded as two 16-byte vectors where rows are aligned. Built with SPLIT_PLANES
// (prebuilt bf16x6_planes_f32) it splits nothing: the pre-pass split_planes.comp has written every element's parts
// once, and the staging copies them into the part tiles.
//
// Tuned specialization constants (id: meaning):
//   0: workgroup size = SG_M * SG_N * 32   1: BM   2: BN   3: BK (multiple of 16)   4: SG_M   5: SG_N
//   6: STAGES, shared-memory buffers of the part tiles (1 or 2)

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

#define COOPMAT_OPERANDS 1
layout(std430, binding = 0) readonly buffer BufA { float a_data[]; };
layout(std430, binding = 1) readonly buffer BufB { float b_data[]; };
// The same buffers as 16-byte vectors of 4 elements, for aligned rows.
layout(std430, binding = 0) readonly buffer BufA4 { uvec4 a_vec[]; };
layout(std430, binding = 1) readonly buffer BufB4 { uvec4 b_vec[]; };
#include "common/gemm_common.glsl"
#if defined(SPLIT_PLANES)
// The parts split once by the pre-pass (split_planes.comp; rules::Prepass::split_ab): rows of op(A) and of op(B)^T,
// each group of 8 as three 16-byte vectors (hi, mid, lo). Staged as A stored M x K and B stored N x K whatever the
// operands' layouts, always aligned; K is rounded up to whole groups with zeros.
layout(std430, binding = 4) readonly buffer BufParts { uvec4 part_groups[]; };
#define A_T false
#define B_T true
#else
#define A_T TRANS_A
#define B_T TRANS_B
#endif

const uint WG_SIZE = SG_M * SG_N * 32;
const uint WM = BM / SG_M;
const uint WN = BN / SG_N;
const uint FM = WM / 16;
const uint FN = WN / 16;

// Part tiles sit in shared memory as the operands sit in their buffers (gemm_coopmat.comp), 16-bit elements in rows
// padded by 8; each stage holds the hi, mid and lo tiles of A, then those of B.
const uint A_RUN = A_T ? BM : BK;
const uint B_RUN = B_T ? BK : BN;
const uint A_STRIDE = A_RUN + 8;
const uint B_STRIDE = B_RUN + 8;
const uint A_TILE = (BM * BK + 8 * (BM + BK)) / 8;  // uvec4s per part tile
const uint B_TILE = (BK * BN + 8 * (BK + BN)) / 8;
const uint PARTS = 3;
const uint B_BASE = STAGES * PARTS * A_TILE;
const uint OUT_STRIDE = 16 + 4;
const uint OUT_TILE = SG_M * SG_N * 16 * OUT_STRIDE / 4;
const uint TILES = STAGES * PARTS * (A_TILE + B_TILE);
shared uvec4 smem[TILES > OUT_TILE ? TILES : OUT_TILE];

// A group is 8 elements along the contiguous direction, held raw (f32 bits) until it is split at the store.
const uint A_GROUPS = BM * BK / 8;
const uint B_GROUPS = BK * BN / 8;
const uint A_PER = (A_GROUPS + WG_SIZE - 1) / WG_SIZE;
const uint B_PER = (B_GROUPS + WG_SIZE - 1) / WG_SIZE;
#if defined(SPLIT_PLANES)
uvec4 reg_a[A_PER][3];  // the group's parts, as the pre-pass wrote them
uvec4 reg_b[B_PER][3];
#else
uvec4 reg_a[A_PER][2];
uvec4 reg_b[B_PER][2];
#endif

#include "common/bf16_split.glsl"

void a_group(uint g, out uint r, out uint kk) {
  const uint along = (g % (A_RUN / 8)) * 8, across = g / (A_RUN / 8);
  if (A_T) { r = along; kk = across; } else { r = across; kk = along; }
}
void b_group(uint g, out uint kk, out uint c) {
  const uint along = (g % (B_RUN / 8)) * 8, across = g / (B_RUN / 8);
  if (B_T) { kk = along; c = across; } else { kk = across; c = along; }
}
uint a_slot(uint g) { return (g / (A_RUN / 8)) * (A_STRIDE / 8) + g % (A_RUN / 8); }
uint b_slot(uint g) { return (g / (B_RUN / 8)) * (B_STRIDE / 8) + g % (B_RUN / 8); }

// Aligned tiles stage whole steps from indices advanced by a constant, edge tiles too where their rows past M
// (columns past N) can read a real one instead (gemm_coopmat.comp says why that is safe).
bool fast_steps;
uint k_first;
uint a_first[A_PER], b_first[B_PER];

#if defined(SPLIT_PLANES)
// Every tile stages from indices advanced by a constant: rows past M (columns past N) read the last real one, whose
// products reach only C's unstored rows (columns); groups from K on are zero in the parts, past the last group of a
// row they would be the next row's, so the k tail checks its groups.
void set_first_indices(uint z, uint row0, uint col0, uint k_begin, uint lid) {
  const uint k8 = (p.K + 7) / 8, rows = p.M + p.N;
  k_first = k_begin;
  [[unroll]] for (uint j = 0; j < A_PER; ++j) {
    uint r, kk;
    a_group(lid + j * WG_SIZE, r, kk);
    a_first[j] = 3 * ((z * rows + min(row0 + r, p.M - 1)) * k8 + (k_begin + kk) / 8);
  }
  [[unroll]] for (uint j = 0; j < B_PER; ++j) {
    uint kk, c;
    b_group(lid + j * WG_SIZE, kk, c);
    b_first[j] = 3 * ((z * rows + p.M + min(col0 + c, p.N - 1)) * k8 + (k_begin + kk) / 8);
  }
}

void load_step(uint z, uint row0, uint col0, uint k0, uint k_end, uint lid) {
  const bool whole = k0 + BK <= k_end;  // uniform across the workgroup
  const uint s = 3 * ((k0 - k_first) / 8);
  [[unroll]] for (uint j = 0; j < A_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
    uint r, kk;
    a_group(g, r, kk);
    const bool live = g < A_GROUPS && (whole || k0 + kk < k_end);
    [[unroll]] for (uint part = 0; part < 3; ++part)
      reg_a[j][part] = live ? part_groups[a_first[j] + s + part] : uvec4(0);
  }
  [[unroll]] for (uint j = 0; j < B_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
    uint kk, c;
    b_group(g, kk, c);
    const bool live = g < B_GROUPS && (whole || k0 + kk < k_end);
    [[unroll]] for (uint part = 0; part < 3; ++part)
      reg_b[j][part] = live ? part_groups[b_first[j] + s + part] : uvec4(0);
  }
}

void store_step(uint lid, uint stage) {
  [[unroll]] for (uint j = 0; j < A_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
    if (g < A_GROUPS) {
      const uint base = stage * PARTS * A_TILE + a_slot(g);
      [[unroll]] for (uint part = 0; part < 3; ++part) smem[base + part * A_TILE] = reg_a[j][part];
    }
  }
  [[unroll]] for (uint j = 0; j < B_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
    if (g < B_GROUPS) {
      const uint base = B_BASE + stage * PARTS * B_TILE + b_slot(g);
      [[unroll]] for (uint part = 0; part < 3; ++part) smem[base + part * B_TILE] = reg_b[j][part];
    }
  }
}
#else
void set_first_indices(uint z, uint row0, uint col0, uint k_begin, uint lid) {
  const bool rows_clamp = row0 + BM <= p.M || !A_T || p.M % 8 == 0;
  const bool cols_clamp = col0 + BN <= p.N || B_T || p.N % 8 == 0;
  fast_steps = ALIGNED_A && ALIGNED_B && rows_clamp && cols_clamp;
  const uint last_row = A_T ? max(p.M, 8u) - 8 : p.M - 1;
  const uint last_col = B_T ? p.N - 1 : max(p.N, 8u) - 8;
  k_first = k_begin;
  [[unroll]] for (uint j = 0; j < A_PER; ++j) {
    uint r, kk;
    a_group(lid + j * WG_SIZE, r, kk);
    a_first[j] = index_op_a(z, min(row0 + r, last_row), k_begin + kk) / 4;
  }
  [[unroll]] for (uint j = 0; j < B_PER; ++j) {
    uint kk, c;
    b_group(lid + j * WG_SIZE, kk, c);
    b_first[j] = index_op_b(z, k_begin + kk, min(col0 + c, last_col)) / 4;
  }
}

void load_step(uint z, uint row0, uint col0, uint k0, uint k_end, uint lid) {
  if (fast_steps && k0 + BK <= k_end) {  // uniform across the workgroup
    const uint s = (k0 - k_first) / BK;
    const uint a_step = (A_T ? BK * p.lda : BK) / 4, b_step = (B_T ? BK : BK * p.ldb) / 4;
    [[unroll]] for (uint j = 0; j < A_PER; ++j) {
      const bool real = lid + j * WG_SIZE < A_GROUPS;
      reg_a[j][0] = real ? a_vec[a_first[j] + s * a_step] : uvec4(0);
      reg_a[j][1] = real ? a_vec[a_first[j] + s * a_step + 1] : uvec4(0);
    }
    [[unroll]] for (uint j = 0; j < B_PER; ++j) {
      const bool real = lid + j * WG_SIZE < B_GROUPS;
      reg_b[j][0] = real ? b_vec[b_first[j] + s * b_step] : uvec4(0);
      reg_b[j][1] = real ? b_vec[b_first[j] + s * b_step + 1] : uvec4(0);
    }
    return;
  }
  [[unroll]] for (uint j = 0; j < A_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
    uint r, kk;
    a_group(g, r, kk);
    const uint gr = row0 + r, gk = k0 + kk;
    const bool whole = A_T ? (gk < k_end && gr + 8 <= p.M) : (gr < p.M && gk + 8 <= k_end);
    if (g >= A_GROUPS) {
      reg_a[j][0] = uvec4(0);
      reg_a[j][1] = uvec4(0);
    } else if (ALIGNED_A && whole) {
      const uint i = index_op_a(z, gr, gk) / 4;
      reg_a[j][0] = a_vec[i];
      reg_a[j][1] = a_vec[i + 1];
    } else {
      uint v[8];
      [[unroll]] for (uint e = 0; e < 8; ++e) {
        const uint er = A_T ? gr + e : gr, ek = A_T ? gk : gk + e;
        v[e] = (er < p.M && ek < k_end) ? floatBitsToUint(a_data[index_op_a(z, er, ek)]) : 0u;
      }
      reg_a[j][0] = uvec4(v[0], v[1], v[2], v[3]);
      reg_a[j][1] = uvec4(v[4], v[5], v[6], v[7]);
    }
  }
  [[unroll]] for (uint j = 0; j < B_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
    uint kk, c;
    b_group(g, kk, c);
    const uint gk = k0 + kk, gc = col0 + c;
    const bool whole = B_T ? (gk + 8 <= k_end && gc < p.N) : (gk < k_end && gc + 8 <= p.N);
    if (g >= B_GROUPS) {
      reg_b[j][0] = uvec4(0);
      reg_b[j][1] = uvec4(0);
    } else if (ALIGNED_B && whole) {
      const uint i = index_op_b(z, gk, gc) / 4;
      reg_b[j][0] = b_vec[i];
      reg_b[j][1] = b_vec[i + 1];
    } else {
      uint v[8];
      [[unroll]] for (uint e = 0; e < 8; ++e) {
        const uint ek = B_T ? gk + e : gk, ec = B_T ? gc : gc + e;
        v[e] = (ek < k_end && ec < p.N) ? floatBitsToUint(b_data[index_op_b(z, ek, ec)]) : 0u;
      }
      reg_b[j][0] = uvec4(v[0], v[1], v[2], v[3]);
      reg_b[j][1] = uvec4(v[4], v[5], v[6], v[7]);
    }
  }
}

void store_step(uint lid, uint stage) {
  [[unroll]] for (uint j = 0; j < A_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
    if (g < A_GROUPS) {
      uvec4 p0, p1, p2;
      split8(reg_a[j][0], reg_a[j][1], p0, p1, p2);
      const uint base = stage * PARTS * A_TILE + a_slot(g);
      smem[base] = p0;
      smem[base + A_TILE] = p1;
      smem[base + 2 * A_TILE] = p2;
    }
  }
  [[unroll]] for (uint j = 0; j < B_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
    if (g < B_GROUPS) {
      uvec4 p0, p1, p2;
      split8(reg_b[j][0], reg_b[j][1], p0, p1, p2);
      const uint base = B_BASE + stage * PARTS * B_TILE + b_slot(g);
      smem[base] = p0;
      smem[base + B_TILE] = p1;
      smem[base + 2 * B_TILE] = p2;
    }
  }
}

#endif

#define ACC coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>
#define FRAG_A coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA>
#define FRAG_B coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB>

void load_a(out FRAG_A frag, uint a_base, uint part, uint r, uint kk) {
  coopMatLoad(frag, smem, a_base + part * A_TILE + (A_T ? kk * A_STRIDE + r : r * A_STRIDE + kk) / 8,
              A_STRIDE / 8, A_T ? gl_CooperativeMatrixLayoutColumnMajor : gl_CooperativeMatrixLayoutRowMajor);
}
void load_b(out FRAG_B frag, uint b_base, uint part, uint kk, uint c) {
  coopMatLoad(frag, smem, b_base + part * B_TILE + (B_T ? c * B_STRIDE + kk : kk * B_STRIDE + c) / 8,
              B_STRIDE / 8, B_T ? gl_CooperativeMatrixLayoutColumnMajor : gl_CooperativeMatrixLayoutRowMajor);
}

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

  ACC acc[FM * FN];
  ACC step[FM * FN];
  [[unroll]] for (uint f = 0; f < FM * FN; ++f) acc[f] = ACC(0.0);

  if (p.alpha != 0.0 && k_begin < k_end) {
    set_first_indices(z, row0, col0, k_begin, lid);
    load_step(z, row0, col0, k_begin, k_end, lid);
    if (STAGES == 2) {
      store_step(lid, 0);
      barrier();
    }
    uint stage = 0;
    for (uint k0 = k_begin; k0 < k_end; k0 += BK) {
      const bool more = k0 + BK < k_end;
      if (STAGES == 1) {
        store_step(lid, 0);
        barrier();
      }
      if (more) load_step(z, row0, col0, k0 + BK, k_end, lid);
      const uint a_base = stage * PARTS * A_TILE, b_base = B_BASE + stage * PARTS * B_TILE;
      // The step's corrections, smallest first, in a zeroed fragment added outside the units.
      [[unroll]] for (uint f = 0; f < FM * FN; ++f) step[f] = ACC(0.0);
      [[unroll]] for (uint kk = 0; kk < BK; kk += 16) {
        FRAG_A a_hi[FM], a_mid[FM], a_lo[FM];
        [[unroll]] for (uint i = 0; i < FM; ++i) {
          const uint r = sg_row * WM + i * 16;
          load_a(a_hi[i], a_base, 0, r, kk);
          load_a(a_mid[i], a_base, 1, r, kk);
          load_a(a_lo[i], a_base, 2, r, kk);
        }
        [[unroll]] for (uint j = 0; j < FN; ++j) {
          const uint c = sg_col * WN + j * 16;
          FRAG_B b_hi, b_mid, b_lo;
          load_b(b_hi, b_base, 0, kk, c);
          load_b(b_mid, b_base, 1, kk, c);
          load_b(b_lo, b_base, 2, kk, c);
          [[unroll]] for (uint i = 0; i < FM; ++i) {
            ACC s = step[i * FN + j];
            s = coopMatMulAdd(a_lo[i], b_hi, s);
            s = coopMatMulAdd(a_hi[i], b_lo, s);
            s = coopMatMulAdd(a_mid[i], b_mid, s);
            s = coopMatMulAdd(a_mid[i], b_hi, s);
            s = coopMatMulAdd(a_hi[i], b_mid, s);
            step[i * FN + j] = s;
          }
        }
      }
      [[unroll]] for (uint f = 0; f < FM * FN; ++f) {
        acc[f] = acc[f] + step[f];
        step[f] = ACC(0.0);
      }
      // Then the high products, likewise.
      [[unroll]] for (uint kk = 0; kk < BK; kk += 16) {
        FRAG_A a_hi[FM];
        [[unroll]] for (uint i = 0; i < FM; ++i) load_a(a_hi[i], a_base, 0, sg_row * WM + i * 16, kk);
        [[unroll]] for (uint j = 0; j < FN; ++j) {
          FRAG_B b_hi;
          load_b(b_hi, b_base, 0, kk, sg_col * WN + j * 16);
          [[unroll]] for (uint i = 0; i < FM; ++i) step[i * FN + j] = coopMatMulAdd(a_hi[i], b_hi, step[i * FN + j]);
        }
      }
      [[unroll]] for (uint f = 0; f < FM * FN; ++f) acc[f] = acc[f] + step[f];
      if (STAGES == 2) {
        stage ^= 1u;
        if (more) store_step(lid, stage);
      }
      barrier();
    }
  }

  // Out through shared memory, one fragment per subgroup at a time (gemm_coopmat.comp).
  const uint out_base = sg * 16 * OUT_STRIDE / 4;
  [[unroll]] for (uint i = 0; i < FM; ++i) {
    [[unroll]] for (uint j = 0; j < FN; ++j) {
      coopMatStore(acc[i * FN + j], smem, out_base, OUT_STRIDE / 4, gl_CooperativeMatrixLayoutRowMajor);
      subgroupBarrier();
      for (uint e = lane; e < 256; e += 32) {
        const uint r = e / 16, c = e % 16;
        const uint gr = row0 + sg_row * WM + i * 16 + r;
        const uint gc = col0 + sg_col * WN + j * 16 + c;
        if (gr < p.M && gc < p.N) {
          const uint word = r * OUT_STRIDE + c;
          const float sum = uintBitsToFloat(smem[out_base + word / 4][word % 4]);
#if defined(SPLIT_PLANES)
          c_data[c_index(z, gr, gc)] = finish(sum, z, gr, gc);  // one k range: binding 4 holds the pre-pass's output
#else
          if (SPLIT > 1) {
            scratch_data[scratch_index(z, range, gr, gc)] = sum;
          } else {
            c_data[c_index(z, gr, gc)] = finish(sum, z, gr, gc);
          }
#endif
        }
      }
      subgroupBarrier();
    }
  }
}
