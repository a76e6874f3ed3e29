#version 450
// gemm_tiled: the portable tiled GEMM, C = alpha * op(A) * op(B) + beta * C, batched, with the fused epilogue
// (common/gemm_common.glsl). With SPLIT > 1 it is the first pass of split-k: workgroup z covers product
// z / SPLIT and k range z % SPLIT, and writes raw sums to that range's scratch plane (splitk_reduce.comp adds
// the planes and applies the epilogue).
//
// A workgroup owns a BM x BN tile of C and walks its k range in steps of BK through two k-major shared-memory
// tiles held as vec4s; each invocation owns a TM x TN register tile. Where TM (TN) is a multiple of 4, its rows
// (columns) come in runs of 4 adjacent ones, runs 4 * BM/TM (4 * BN/TN) apart, so each run is one 16-byte
// shared load: one load per 4 * TN (4 * TM) FMAs instead of one per TN (TM), which keeps the shared-load pipe
// below the FMA rate. Otherwise rows are BM/TM (columns BN/TN) apart, one float each. Neighbouring invocations
// read neighbouring shared words and write neighbouring columns of C either way. The next step's global loads
// are issued into registers before the current step is multiplied, so their latency overlaps the arithmetic.
// Staging is bounds-checked (zero fill), so any M, N, K works.
//
// Tuned specialization constants (id: meaning):
//   0: workgroup size, must equal (BM/TM) * (BN/TN)   1: BM   2: BN   3: BK   4: TM   5: TN
// Summation order depends only on the shape and the config: k ascends in every invocation, no atomics.
// With DETERMINISTIC the order is also independent of BK: chains of 16 products (from zero), 32-term blocks
// (two chains), 128-term groups (four blocks), groups added in increasing k; BK must be a multiple of 16.

#extension GL_EXT_control_flow_attributes : enable
#extension GL_GOOGLE_include_directive : enable

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint BM = 64;
layout(constant_id = 2) const uint BN = 64;
layout(constant_id = 3) const uint BK = 16;
layout(constant_id = 4) const uint TM = 4;
layout(constant_id = 5) const uint TN = 4;

#include "common/gemm_common.glsl"
#if defined(BLOCK_OPERANDS)
#include "common/quant_blocks.glsl"  // B in ggml's blocks, decoded element by element while staging
#endif

const uint RX = BN / TN;  // invocations across the columns of the tile
const uint RY = BM / TM;  // invocations across its rows
const uint WG_SIZE = RX * RY;
const uint A_LOADS = (BM * BK + WG_SIZE - 1) / WG_SIZE;
const uint B_LOADS = (BK * BN + WG_SIZE - 1) / WG_SIZE;
// Runs of 4 rows (columns) per invocation where the register tile allows: one vec4 shared load per run.
const bool A_RUNS = TM % 4 == 0;
const bool B_RUNS = TN % 4 == 0;

shared vec4 tile_a4[BK * BM / 4];  // k-major: element (kk, row) is word kk * BM + row
shared vec4 tile_b4[BK * BN / 4];  // k-major: element (kk, col) is word kk * BN + col

void put_a(uint kk, uint r, float v) { tile_a4[(kk * BM + r) >> 2][r & 3u] = v; }
void put_b(uint kk, uint c, float v) { tile_b4[(kk * BN + c) >> 2][c & 3u] = v; }

/// Tile row of the invocation's i-th row (ty: its row index in the workgroup), and column of its j-th column.
uint tile_row(uint ty, uint i) { return A_RUNS ? ((i / 4) * RY + ty) * 4 + i % 4 : ty + i * RY; }
uint tile_col(uint tx, uint j) { return B_RUNS ? ((j / 4) * RX + tx) * 4 + j % 4 : tx + j * RX; }

#if !defined(INPUT_F32)
float reg_a[A_LOADS];
float reg_b[B_LOADS];
#endif

// Tile coordinates of staged element e: consecutive invocations walk the direction that is contiguous in memory.
void a_coords(uint e, out uint r, out uint kk) {
  if (TRANS_A) { r = e % BM; kk = e / BM; } else { kk = e % BK; r = e / BK; }
}
void b_coords(uint e, out uint kk, out uint c) {
  if (TRANS_B) { kk = e % BK; c = e / BK; } else { c = e % BN; kk = e / BN; }
}

#if defined(INPUT_F32)
// f32: staging moves groups of 4 elements contiguous in memory (along k for A as stored M x K, along m for A
// stored K x M; along n for B stored K x N, along k for B stored N x K): one 16-byte load where rows are
// aligned, 4 bounds-checked loads at edges and for unaligned rows.
const uint A_RUN = TRANS_A ? BM : BK;
const uint B_RUN = TRANS_B ? BK : BN;
const uint A_GROUPS = BM * BK / 4;
const uint B_GROUPS = BK * BN / 4;
const uint A_PER = (A_GROUPS + WG_SIZE - 1) / WG_SIZE;
const uint B_PER = (B_GROUPS + WG_SIZE - 1) / WG_SIZE;
vec4 vreg_a[A_PER];
vec4 vreg_b[B_PER];

void a_group(uint g, out uint r, out uint kk) {
  const uint along = (g % (A_RUN / 4)) * 4, across = g / (A_RUN / 4);
  if (TRANS_A) { r = along; kk = across; } else { r = across; kk = along; }
}
void b_group(uint g, out uint kk, out uint c) {
  const uint along = (g % (B_RUN / 4)) * 4, across = g / (B_RUN / 4);
  if (TRANS_B) { kk = along; c = across; } else { kk = across; c = along; }
}

void load_step(uint z, uint row0, uint col0, uint k0, uint k_end, uint lid) {
  [[unroll]] for (uint j = 0; j < A_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
    uint r, kk;
    a_group(g, r, kk);
    const uint gr = row0 + r, gk = k0 + kk;
    const bool whole = TRANS_A ? (gk < k_end && gr + 4 <= p.M) : (gr < p.M && gk + 4 <= k_end);
    if (g >= A_GROUPS) {
      vreg_a[j] = vec4(0.0);
    } else if (ALIGNED_A && whole) {
      vreg_a[j] = a_vec4[index_op_a(z, gr, gk) / 4];
    } else {
      [[unroll]] for (uint e = 0; e < 4; ++e) {
        const uint er = TRANS_A ? gr + e : gr, ek = TRANS_A ? gk : gk + e;
        vreg_a[j][e] = (er < p.M && ek < k_end) ? load_op_a(z, er, ek) : 0.0;
      }
    }
  }
  [[unroll]] for (uint j = 0; j < B_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
    uint kk, c;
    b_group(g, kk, c);
    const uint gk = k0 + kk, gc = col0 + c;
    const bool whole = TRANS_B ? (gk + 4 <= k_end && gc < p.N) : (gk < k_end && gc + 4 <= p.N);
    if (g >= B_GROUPS) {
      vreg_b[j] = vec4(0.0);
    } else if (ALIGNED_B && whole) {
      vreg_b[j] = b_vec4[index_op_b(z, gk, gc) / 4];
    } else {
      [[unroll]] for (uint e = 0; e < 4; ++e) {
        const uint ek = TRANS_B ? gk + e : gk, ec = TRANS_B ? gc : gc + e;
        vreg_b[j][e] = (ek < k_end && ec < p.N) ? load_op_b(z, ek, ec) : 0.0;
      }
    }
  }
}

void store_step(uint lid) {
  [[unroll]] for (uint j = 0; j < A_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
    if (g >= A_GROUPS) continue;
    uint r, kk;
    a_group(g, r, kk);
    if (TRANS_A) {  // four adjacent rows at one k: one aligned vec4
      tile_a4[(kk * BM + r) >> 2] = vreg_a[j];
    } else {
      [[unroll]] for (uint e = 0; e < 4; ++e) put_a(kk + e, r, vreg_a[j][e]);
    }
  }
  [[unroll]] for (uint j = 0; j < B_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
    if (g >= B_GROUPS) continue;
    uint kk, c;
    b_group(g, kk, c);
    if (!TRANS_B) {  // four adjacent columns at one k: one aligned vec4
      tile_b4[(kk * BN + c) >> 2] = vreg_b[j];
    } else {
      [[unroll]] for (uint e = 0; e < 4; ++e) put_b(kk + e, c, vreg_b[j][e]);
    }
  }
}
#else
void load_step(uint z, uint row0, uint col0, uint k0, uint k_end, uint lid) {
  [[unroll]] for (uint j = 0; j < A_LOADS; ++j) {
    const uint e = lid + j * WG_SIZE;
    uint r, kk;
    a_coords(e, r, kk);
    const uint gr = row0 + r, gk = k0 + kk;
    reg_a[j] = (e < BM * BK && gr < p.M && gk < k_end) ? load_op_a(z, gr, gk) : 0.0;
  }
  [[unroll]] for (uint j = 0; j < B_LOADS; ++j) {
    const uint e = lid + j * WG_SIZE;
    uint kk, c;
    b_coords(e, kk, c);
    const uint gk = k0 + kk, gc = col0 + c;
    reg_b[j] = (e < BK * BN && gk < k_end && gc < p.N) ? load_op_b(z, gk, gc) : 0.0;
  }
}

void store_step(uint lid) {
  [[unroll]] for (uint j = 0; j < A_LOADS; ++j) {
    const uint e = lid + j * WG_SIZE;
    uint r, kk;
    a_coords(e, r, kk);
    if (e < BM * BK) put_a(kk, r, reg_a[j]);
  }
  [[unroll]] for (uint j = 0; j < B_LOADS; ++j) {
    const uint e = lid + j * WG_SIZE;
    uint kk, c;
    b_coords(e, kk, c);
    if (e < BK * BN) put_b(kk, c, reg_b[j]);
  }
}

#endif

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint tx = lid % RX;
  const uint ty = lid / RX;
  const uint row0 = (gl_WorkGroupID.y + p.base_y) * BM;
  const uint col0 = (gl_WorkGroupID.x + p.base_x) * BN;
  const uint zs = gl_WorkGroupID.z + p.base_z;
  const uint z = zs / SPLIT;
  const uint range = zs % SPLIT;
  const uint k_begin = range * p.k_split;
  const uint k_end = min(p.K, k_begin + p.k_split);

  precise float total[TM * TN];
  precise float chain[TM * TN];
  precise float block[TM * TN];
  precise float group[TM * TN];
  [[unroll]] for (uint i = 0; i < TM * TN; ++i) {
    total[i] = 0.0;
    chain[i] = 0.0;
    block[i] = 0.0;
    group[i] = 0.0;
  }
  uint chains = 0;  // deterministic mode: 16-product chains completed in this range

  // alpha = 0: beta * C only; A and B are never read (NaN in them must not leak).
  if (p.alpha != 0.0 && k_begin < k_end) {
    load_step(z, row0, col0, k_begin, k_end, lid);
    for (uint k0 = k_begin; k0 < k_end; k0 += BK) {
      store_step(lid);
      barrier();
      if (k0 + BK < k_end) load_step(z, row0, col0, k0 + BK, k_end, lid);
      for (uint kk = 0; kk < BK; ++kk) {
        float av[TM];
        float bv[TN];
        if (A_RUNS) {
          [[unroll]] for (uint g = 0; g < TM / 4; ++g) {
            const vec4 run = tile_a4[(kk * BM) / 4 + g * RY + ty];
            [[unroll]] for (uint e = 0; e < 4; ++e) av[g * 4 + e] = run[e];
          }
        } else {
          [[unroll]] for (uint i = 0; i < TM; ++i) {
            const uint r = ty + i * RY;
            av[i] = tile_a4[(kk * BM + r) >> 2][r & 3u];
          }
        }
        if (B_RUNS) {
          [[unroll]] for (uint h = 0; h < TN / 4; ++h) {
            const vec4 run = tile_b4[(kk * BN) / 4 + h * RX + tx];
            [[unroll]] for (uint e = 0; e < 4; ++e) bv[h * 4 + e] = run[e];
          }
        } else {
          [[unroll]] for (uint j = 0; j < TN; ++j) {
            const uint c = tx + j * RX;
            bv[j] = tile_b4[(kk * BN + c) >> 2][c & 3u];
          }
        }
        if (DETERMINISTIC) {
          [[unroll]] for (uint i = 0; i < TM; ++i) {
            [[unroll]] for (uint j = 0; j < TN; ++j) chain[i * TN + j] = fma(av[i], bv[j], chain[i * TN + j]);
          }
          if (kk % 16 == 15) {
            // A chain of 16 is complete: fold it into its block, the block into its group, the group into the total.
            const bool second_half = (chains & 1u) == 1u;
            [[unroll]] for (uint i = 0; i < TM * TN; ++i) {
              block[i] = second_half ? block[i] + chain[i] : chain[i];
              chain[i] = 0.0;
            }
            ++chains;
            if (second_half) {
              const uint blocks = chains / 2;
              [[unroll]] for (uint i = 0; i < TM * TN; ++i) {
                group[i] = ((blocks - 1) % 4 == 0) ? block[i] : group[i] + block[i];
              }
              if (blocks % 4 == 0) {
                [[unroll]] for (uint i = 0; i < TM * TN; ++i) total[i] = total[i] + group[i];
              }
            }
          }
        } else {
          [[unroll]] for (uint i = 0; i < TM; ++i) {
            [[unroll]] for (uint j = 0; j < TN; ++j) total[i * TN + j] = fma(av[i], bv[j], total[i * TN + j]);
          }
        }
      }
      barrier();
    }
    if (DETERMINISTIC) {
      // Flush a half block and a partial group (the zero-filled tail of the range completes every chain).
      const uint blocks = chains / 2;
      if ((chains & 1u) == 1u) {
        [[unroll]] for (uint i = 0; i < TM * TN; ++i) {
          group[i] = (blocks % 4 == 0) ? block[i] : group[i] + block[i];
          total[i] = total[i] + group[i];
        }
      } else if (blocks % 4 != 0) {
        [[unroll]] for (uint i = 0; i < TM * TN; ++i) total[i] = total[i] + group[i];
      }
    }
  }

  // The epilogue a step at a time over the register tile (see scaled() in common/gemm_common.glsl): with finish()
  // in one loop, every TM = TN = 8 config kept total[] in local memory on the H200 and ran 15 times slower.
  if (SPLIT == 1) {
    [[unroll]] for (uint i = 0; i < TM * TN; ++i) total[i] = scaled(total[i]);
    [[unroll]] for (uint i = 0; i < TM; ++i) {
      const uint gr = row0 + tile_row(ty, i);
      [[unroll]] for (uint j = 0; j < TN; ++j) {
        const uint gc = col0 + tile_col(tx, j);
        if (gr < p.M && gc < p.N) total[i * TN + j] = plus_c(total[i * TN + j], z, gr, gc);
      }
    }
    [[unroll]] for (uint j = 0; j < TN; ++j) {
      const uint gc = col0 + tile_col(tx, j);
      if (gc >= p.N) continue;
      [[unroll]] for (uint i = 0; i < TM; ++i) total[i * TN + j] = plus_bias(total[i * TN + j], gc);
    }
    [[unroll]] for (uint i = 0; i < TM * TN; ++i) total[i] = activation(total[i]);
  }
  [[unroll]] for (uint i = 0; i < TM; ++i) {
    const uint gr = row0 + tile_row(ty, i);
    if (gr >= p.M) continue;
    [[unroll]] for (uint j = 0; j < TN; ++j) {
      const uint gc = col0 + tile_col(tx, j);
#if defined(FAULT_DROP_EDGE_COLUMN)  // planted fault (tests/gpu/test_planted_faults.cpp): C's last column unwritten
      if (gc >= p.N - 1) continue;
#else
      if (gc >= p.N) continue;
#endif
#if defined(B_PLANE)
      c_data[c_index(z, gr, gc)] = total[i * TN + j];  // one k range: binding 4 holds the pre-pass's output
#else
      if (SPLIT > 1) {
        scratch_data[scratch_index(z, range, gr, gc)] = total[i * TN + j];
      } else {
        c_data[c_index(z, gr, gc)] = total[i * TN + j];
      }
#endif
    }
  }
}
