#version 450
// gemm_warptile: f32 GEMM on the FMA units with the workgroup tile split into warp tiles, C = alpha * op(A) *
// op(B) + beta * C, batched, with the fused epilogue (common/gemm_common.glsl).
//
// A workgroup owns a BM x BN tile of C and is (BM/WM) x (BN/WN) groups of 32 invocations ("warps", whatever the
// device's subgroup size: nothing here is a subgroup operation), each owning a WM x WN warp tile. A warp's lanes
// form an LM x LN grid (LM = WM/TM, LN = WN/TN, LM * LN = 32) and each lane owns TM x TN outputs in runs of 4 rows
// and 4 columns, runs LM (LN) lanes apart: every operand read from shared memory is one 16-byte load, and the LN
// lanes across a warp read LN adjacent vec4s, so a warp's loads of one k touch WM + WN floats, not the 16 x 128
// of the tiled kernel's row-of-lanes layout. Both tiles are k-major (A transposed on its way in), rows padded by
// 4 floats so the transposing stores of 4 k values spread over the banks, and double-buffered: one barrier a step.
// The next step's global loads are issued into registers before this step is multiplied and stored into the other
// buffer after it. Interior tiles stage whole steps without bounds checks (each group's index computed once and
// advanced by a constant a step: issue 22 step 5), a group of an aligned operand as one 16-byte load, of an
// unaligned one as 4 scalar loads; edge tiles and the k tail check every element (zero fill), so any M, N, K works.
//
// With SPLIT > 1 workgroup z covers product z / SPLIT over k range z % SPLIT and writes its raw sums to that range's
// plane; split-k is finished in this pass (common/split_one_pass.glsl: the last workgroup of a tile to arrive adds
// the planes in range order) or, with REDUCE_PASS, by the reduce pass (splitk_reduce.comp), whose adds are spread
// over the device instead of over one workgroup a tile.
//
// Tuned specialization constants (id: meaning):
//   0: workgroup size, must equal (BM/WM) * (BN/WN) * 32   1: BM   2: BN   3: BK   4: WM   5: WN   6: TM   7: TN
//   8: REDUCE_PASS (split-k finished by the reduce pass)   9: ROW_AHEAD (the next k row's fragments read early)
//   10: TILES, tiles side by side in n a workgroup computes in turn (one k range only): the next tile's first step is
//       loaded before the current one is written out, as coopmat's TILES (results/h200/notes.md, issue 43 step 45)
//   11: C_VECTORS, a lane's runs of 4 columns of C written as one 16-byte store where C's rows allow it
//   12: KSLICES, groups of warps that each cover the whole tile over their own part of every k step (CUTLASS's sliced
//       k): a tile gets KSLICES times the warps without split-k's planes; the groups' sums are added in shared
//       memory at the end, group 0's first (one tile and no one-pass finish: src/kernels/warptile.cpp)
// TILES 1 without C_VECTORS is the kernel as it was before both (long k loops ran 3-6 % slower with them: step 45b).
// TM and TN are 4 or 8. Summation: k ascends in every invocation and ranges are added in order, no atomics in
// the sums, so repeated runs give identical bits (the fixed order of deterministic mode is the tiled kernel's).

#extension GL_EXT_control_flow_attributes : enable
#extension GL_GOOGLE_include_directive : enable

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint BM = 128;
layout(constant_id = 2) const uint BN = 128;
layout(constant_id = 3) const uint BK = 16;
layout(constant_id = 4) const uint WM = 32;
layout(constant_id = 5) const uint WN = 64;
layout(constant_id = 6) const uint TM = 8;
layout(constant_id = 7) const uint TN = 8;
layout(constant_id = 8) const bool REDUCE_PASS = false;
layout(constant_id = 9) const bool ROW_AHEAD = false;
layout(constant_id = 10) const uint TILES = 1;
layout(constant_id = 11) const bool C_VECTORS = false;
layout(constant_id = 12) const uint KSLICES = 1;

#include "common/gemm_common.glsl"
#include "common/split_one_pass.glsl"
layout(std430, binding = 2) buffer BufC4 { vec4 c_vec4[]; };  // C as 16-byte vectors, for rows on 16 bytes

const uint LM = WM / TM;  // lanes down a warp tile
const uint LN = WN / TN;  // lanes across it
const uint WARPS_N = BN / WN;
const uint SLICE_SIZE = (BM / WM) * WARPS_N * 32;  // invocations of one k slice: the whole tile
const uint WG_SIZE = SLICE_SIZE * KSLICES;
const uint SLICE_K = BK / KSLICES;  // k rows of each step a slice multiplies
const uint SA = BM + 4;  // floats per k row of the A tile
const uint SB = BN + 4;

shared vec4 tile_a[2 * BK * SA / 4];  // buffer b, element (kk, row) at float (b * BK + kk) * SA + row
shared vec4 tile_b[2 * BK * SB / 4];  // buffer b, element (kk, col) at float (b * BK + kk) * SB + col
// Slices 1.. leave their sums here for slice 0: sum i of slice s's invocation t at ((s - 1) * TM * TN + i) *
// SLICE_SIZE + t, so a slice's invocations write neighbouring words.
shared float slice_sums[(KSLICES - 1) * BM * BN + 1];

// Staging moves groups of 4 elements contiguous in memory: along k for A stored M x K and B stored N x K (stored
// transposed, a float at a time), along m for A stored K x M and along n for B stored K x N (one vec4 store).
const uint A_RUN = TRANS_A ? BM : BK;
const uint B_RUN = TRANS_B ? BK : BN;
const uint A_GROUPS = BM * BK / 4;
const uint B_GROUPS = BK * BN / 4;
const uint A_PER = (A_GROUPS + WG_SIZE - 1) / WG_SIZE;
const uint B_PER = (B_GROUPS + WG_SIZE - 1) / WG_SIZE;
vec4 staged_a[A_PER];
vec4 staged_b[B_PER];

void a_group(uint g, out uint r, out uint kk) {
  const uint along = (g % (A_RUN / 4)) * 4, across = g / (A_RUN / 4);
  if (TRANS_A) { r = along; kk = across; } else { r = across; kk = along; }
}
void b_group(uint g, out uint kk, out uint c) {
  const uint along = (g % (B_RUN / 4)) * 4, across = g / (B_RUN / 4);
  if (TRANS_B) { kk = along; c = across; } else { kk = across; c = along; }
}

// The workgroup's problem coordinates, set once by main().
uint z, row0, col0, k_begin, k_end, lid, slice;
// Interior tiles stage whole steps without a bounds check: each group's first element index at the first step,
// advanced by a constant a step (issue 22 step 5: a quarter faster than computing them each step). Unaligned
// operands take this path too (issue 43 step 50): their checked path computed and tested every element's index.
bool interior;
uint a_first[A_PER], b_first[B_PER];

void set_first_indices() {
  interior = row0 + BM <= p.M && col0 + BN <= p.N;
  [[unroll]] for (uint j = 0; j < A_PER; ++j) {
    uint r, kk;
    a_group(lid + j * WG_SIZE, r, kk);
    a_first[j] = index_op_a(z, row0 + r, k_begin + kk);
  }
  [[unroll]] for (uint j = 0; j < B_PER; ++j) {
    uint kk, c;
    b_group(lid + j * WG_SIZE, kk, c);
    b_first[j] = index_op_b(z, k_begin + kk, col0 + c);
  }
}

// A group's 4 elements, contiguous in memory from element i: one 16-byte load where the operand's rows allow it.
vec4 a_group_at(uint i) {
  return ALIGNED_A ? a_vec4[i / 4] : vec4(a_data[i], a_data[i + 1], a_data[i + 2], a_data[i + 3]);
}
vec4 b_group_at(uint i) {
  return ALIGNED_B ? b_vec4[i / 4] : vec4(b_data[i], b_data[i + 1], b_data[i + 2], b_data[i + 3]);
}

/// Step s of the range into registers: a 16-byte load where the 4 elements are in range and rows are aligned.
void load_step(uint s) {
  const uint k0 = k_begin + s * BK;
  if (interior && k0 + BK <= k_end) {  // uniform across the workgroup
    const uint a_step = TRANS_A ? BK * p.lda : BK, b_step = TRANS_B ? BK : BK * p.ldb;
    [[unroll]] for (uint j = 0; j < A_PER; ++j)
      staged_a[j] = lid + j * WG_SIZE < A_GROUPS ? a_group_at(a_first[j] + s * a_step) : vec4(0.0);
    [[unroll]] for (uint j = 0; j < B_PER; ++j)
      staged_b[j] = lid + j * WG_SIZE < B_GROUPS ? b_group_at(b_first[j] + s * b_step) : vec4(0.0);
    return;
  }
  [[unroll]] for (uint j = 0; j < A_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
    uint r, kk;
    a_group(g, r, kk);
    const uint gr = row0 + r, gk = k0 + kk;
    const bool whole = TRANS_A ? (gk < k_end && gr + 4 <= p.M) : (gr < p.M && gk + 4 <= k_end);
    if (g >= A_GROUPS) {
      staged_a[j] = vec4(0.0);
    } else if (ALIGNED_A && whole) {
      staged_a[j] = a_vec4[index_op_a(z, gr, gk) / 4];
    } else {
      [[unroll]] for (uint e = 0; e < 4; ++e) {
        const uint er = TRANS_A ? gr + e : gr, ek = TRANS_A ? gk : gk + e;
        staged_a[j][e] = (er < p.M && ek < k_end) ? load_op_a(z, er, ek) : 0.0;
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
      staged_b[j] = vec4(0.0);
    } else if (ALIGNED_B && whole) {
      staged_b[j] = b_vec4[index_op_b(z, gk, gc) / 4];
    } else {
      [[unroll]] for (uint e = 0; e < 4; ++e) {
        const uint ek = TRANS_B ? gk + e : gk, ec = TRANS_B ? gc : gc + e;
        staged_b[j][e] = (ek < k_end && ec < p.N) ? load_op_b(z, ek, ec) : 0.0;
      }
    }
  }
}

/// The registers' step into shared buffer `buf`.
void store_step(uint buf) {
  [[unroll]] for (uint j = 0; j < A_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
    if (g >= A_GROUPS) continue;
    uint r, kk;
    a_group(g, r, kk);
    const uint at = (buf * BK + kk) * SA + r;
    if (TRANS_A) {
      tile_a[at / 4] = staged_a[j];
    } else {
      [[unroll]] for (uint e = 0; e < 4; ++e) tile_a[(at + e * SA) / 4][r % 4] = staged_a[j][e];
    }
  }
  [[unroll]] for (uint j = 0; j < B_PER; ++j) {
    const uint g = lid + j * WG_SIZE;
    if (g >= B_GROUPS) continue;
    uint kk, c;
    b_group(g, kk, c);
    const uint at = (buf * BK + kk) * SB + c;
    if (!TRANS_B) {
      tile_b[at / 4] = staged_b[j];
    } else {
      [[unroll]] for (uint e = 0; e < 4; ++e) tile_b[(at + e * SB) / 4][c % 4] = staged_b[j][e];
    }
  }
}

float total[TM * TN];

// A k row's fragments: one register set for ROW_AHEAD = false, two (even and odd rows) for ROW_AHEAD.
vec4 a_even[TM / 4], b_even[TN / 4], a_odd[TM / 4], b_odd[TN / 4];

// Macros, not functions: glslang takes no array parameter sized by a specialization constant.
#define READ_ROW(KK, AV, BV)                                                                                   \
  [[unroll]] for (uint r = 0; r < TM / 4; ++r) AV[r] = tile_a[(buf * BK + (KK)) * (SA / 4) + a_at + r * LM]; \
  [[unroll]] for (uint c = 0; c < TN / 4; ++c) BV[c] = tile_b[(buf * BK + (KK)) * (SB / 4) + b_at + c * LN];
#define MULTIPLY_ROW(AV, BV)                                                            \
  [[unroll]] for (uint i = 0; i < TM; ++i) {                                            \
    [[unroll]] for (uint j = 0; j < TN; ++j)                                            \
      total[i * TN + j] = fma(AV[i / 4][i % 4], BV[j / 4][j % 4], total[i * TN + j]); \
  }

/// One step's products from shared buffer `buf`: a_at and b_at are the lane's first vec4 in a k row of each tile.
/// With ROW_AHEAD the fragments of k row kk + 1 are read while row kk is multiplied (two register sets, the loop
/// taken two rows at a time so each set has a fixed name), as CUDA SGEMMs double-buffer their fragments: on the H200
/// that schedule wins in nn, tn and tt and loses in nt (notes, step 17 and the suite after it), so it is tuned.
void multiply(uint buf, uint a_at, uint b_at) {
  // No [[unroll]] on the kk loops: unrolled, a BK 16 step of 8 x 8 outputs took the H200's driver 84-100 s to build
  // (step 4).
  // The slice's k rows of the step (constant bounds where KSLICES is 1, as the loop was before slices).
  const uint k_first = KSLICES > 1 ? slice * SLICE_K : 0, k_last = k_first + SLICE_K;
  if (!ROW_AHEAD) {
    for (uint kk = k_first; kk < k_last; ++kk) {
      READ_ROW(kk, a_even, b_even)
      MULTIPLY_ROW(a_even, b_even)
    }
    return;
  }
  READ_ROW(k_first, a_even, b_even)
  for (uint kk = k_first; kk < k_last; kk += 2) {  // SLICE_K is a multiple of 4
    READ_ROW(kk + 1, a_odd, b_odd)
    MULTIPLY_ROW(a_even, b_even)
    if (kk + 2 < k_last) {
      READ_ROW(kk + 2, a_even, b_even)
    }
    MULTIPLY_ROW(a_odd, b_odd)
  }
}

// The lane's outputs (bases set by main()): its row i is row_base + (i / 4) * LM * 4 + i % 4 (run i / 4; runs are
// LM lanes x 4 rows apart), its column j alike.
uint row_base, col_base;
uint out_row(uint i) { return row_base + (i / 4) * LM * 4 + i % 4; }
uint out_col(uint j) { return col_base + (j / 4) * LN * 4 + j % 4; }

void write_tile(uint range, uint tile_x, uint tile_y, uint warp_m, uint warp_n, uint lane_m, uint lane_n);

/// The tile's k loop, its first step loaded (in registers).
void k_loop(uint steps, uint a_at, uint b_at) {
  store_step(0);
  barrier();
  for (uint s = 0; s < steps; ++s) {  // uniform across the workgroup
    const uint buf = s & 1u;
    if (s + 1 < steps) load_step(s + 1);
    multiply(buf, a_at, b_at);
    if (s + 1 == steps) break;
    store_step(buf ^ 1u);  // the other buffer: last read in step s - 1, before the last barrier
    barrier();
  }
}

void main() {
  lid = gl_LocalInvocationID.x;
  slice = lid / SLICE_SIZE;
  const uint warp = (lid % SLICE_SIZE) / 32, lane = lid % 32;
  const uint warp_m = warp / WARPS_N, warp_n = warp % WARPS_N;
  const uint lane_m = lane / LN, lane_n = lane % LN;
  const uint tile_x = gl_WorkGroupID.x + p.base_x, tile_y = gl_WorkGroupID.y + p.base_y;
  row0 = tile_y * BM;
  const uint col_first = tile_x * BN * TILES;  // the workgroup's first tile's first column
  const uint zs = gl_WorkGroupID.z + p.base_z;
  z = zs / SPLIT;
  const uint range = zs % SPLIT;
  k_begin = range * p.k_split;
  k_end = min(p.K, k_begin + p.k_split);
  // The lane's first vec4 in a k row of each shared tile (its runs are LM and LN vec4s apart).
  const uint a_at = warp_m * (WM / 4) + lane_m, b_at = warp_n * (WN / 4) + lane_n;

  // alpha = 0: beta * C only; A and B are never read (NaN in them must not leak).
  const bool products = p.alpha != 0.0 && k_begin < k_end;  // uniform across the workgroup
  const uint steps = (k_end - k_begin + BK - 1) / BK;
  if (TILES == 1) {  // one tile: nothing to load ahead across tiles
    col0 = col_first;
    [[unroll]] for (uint i = 0; i < TM * TN; ++i) total[i] = 0.0;
    if (products) {
      set_first_indices();
      load_step(0);
      k_loop(steps, a_at, b_at);
    }
    if (KSLICES > 1) {  // slice 0 adds the other slices' sums in slice order and writes the tile alone
      if (slice > 0) {
        [[unroll]] for (uint i = 0; i < TM * TN; ++i)
          slice_sums[((slice - 1) * TM * TN + i) * SLICE_SIZE + lid % SLICE_SIZE] = total[i];
      }
      barrier();
      if (slice > 0) return;
      for (uint s = 1; s < KSLICES; ++s) {
        [[unroll]] for (uint i = 0; i < TM * TN; ++i)
          total[i] += slice_sums[((s - 1) * TM * TN + i) * SLICE_SIZE + lid];
      }
    }
    write_tile(range, tile_x, tile_y, warp_m, warp_n, lane_m, lane_n);
    return;
  }
  if (products) {
    col0 = col_first;
    set_first_indices();
    load_step(0);
  }
  for (uint t = 0; t < TILES; ++t) {  // TILES > 1 only with one k range (src/kernels/warptile.cpp)
    col0 = col_first + t * BN;
    if (col0 >= p.N) break;   // uniform: the workgroup's last tiles past N
    if (t > 0) barrier();     // the tile before read its last step's buffer before this tile's first store
    [[unroll]] for (uint i = 0; i < TM * TN; ++i) total[i] = 0.0;
    if (products) {  // the tile's first step is in registers
      k_loop(steps, a_at, b_at);
      // The next tile's first step goes out before this tile is written: its loads are in flight during the stores.
      if (t + 1 < TILES && col0 + BN < p.N) {
        col0 += BN;
        set_first_indices();
        load_step(0);
        col0 -= BN;
      }
    }
    write_tile(range, tile_x, tile_y, warp_m, warp_n, lane_m, lane_n);
  }
}

/// The tile's sums out: C through the epilogue, or with SPLIT > 1 the range's plane (and the one-pass finish).
void write_tile(uint range, uint tile_x, uint tile_y, uint warp_m, uint warp_n, uint lane_m, uint lane_n) {
  row_base = row0 + warp_m * WM + lane_m * 4;
  col_base = col0 + warp_n * WN + lane_n * 4;
  if (SPLIT > 1) {
    [[unroll]] for (uint i = 0; i < TM; ++i) {
      const uint gr = out_row(i);
      [[unroll]] for (uint j = 0; j < TN; ++j) {
        const uint gc = out_col(j);
        if (gr < p.M && gc < p.N) planes[scratch_index(z, range, gr, gc)] = total[i * TN + j];
      }
    }
    if (REDUCE_PASS) return;  // the reduce pass adds the planes and applies the epilogue
    const uint tiles_n = (p.N + BN - 1) / BN, tiles_m = (p.M + BM - 1) / BM;
    const uint counter = (z * tiles_m + tile_y) * tiles_n + tile_x;
    if (!split_last_to_arrive(counter)) return;
    [[unroll]] for (uint i = 0; i < TM; ++i) {
      const uint gr = out_row(i);
      [[unroll]] for (uint j = 0; j < TN; ++j) {
        const uint gc = out_col(j);
        if (gr < p.M && gc < p.N) c_data[c_index(z, gr, gc)] = finish(split_planes_sum(z, gr, gc), z, gr, gc);
      }
    }
    split_reset_arrivals(counter);
    return;
  }
  // The epilogue a step at a time over the register tile (see scaled() in common/gemm_common.glsl).
  [[unroll]] for (uint i = 0; i < TM * TN; ++i) total[i] = scaled(total[i]);
  [[unroll]] for (uint i = 0; i < TM; ++i) {
    const uint gr = out_row(i);
    [[unroll]] for (uint j = 0; j < TN; ++j) {
      const uint gc = out_col(j);
      if (gr < p.M && gc < p.N) total[i * TN + j] = plus_c(total[i * TN + j], z, gr, gc);
    }
  }
  [[unroll]] for (uint j = 0; j < TN; ++j) {
    const uint gc = out_col(j);
    if (gc >= p.N) continue;
    [[unroll]] for (uint i = 0; i < TM; ++i) total[i * TN + j] = plus_bias(total[i * TN + j], gc);
  }
  [[unroll]] for (uint i = 0; i < TM * TN; ++i) total[i] = activation(total[i]);
  // A lane's runs of 4 columns leave as one 16-byte store where C's rows start on 16 bytes and the run is inside N:
  // the LN lanes across a warp then write LN x 16 contiguous bytes an instruction, where 4-byte stores 16 bytes apart
  // took four instructions for the same bytes.
  const bool c_vectors = C_VECTORS && p.ldc % 4 == 0 && p.off_c % 4 == 0 && p.stride_c % 4 == 0;
  [[unroll]] for (uint i = 0; i < TM; ++i) {
    const uint gr = out_row(i);
    if (gr >= p.M) continue;
    [[unroll]] for (uint j = 0; j < TN; j += 4) {
      const uint gc = out_col(j);
      if (c_vectors && gc + 4 <= p.N) {
        c_vec4[c_index(z, gr, gc) / 4] =
            vec4(total[i * TN + j], total[i * TN + j + 1], total[i * TN + j + 2], total[i * TN + j + 3]);
        continue;
      }
      [[unroll]] for (uint e = 0; e < 4; ++e) {
        if (gc + e < p.N) c_data[c_index(z, gr, gc + e)] = total[i * TN + j + e];
      }
    }
  }
}
