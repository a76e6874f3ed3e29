#version 450
// gemm_tiled_int: the tiled family for 8-bit integer inputs, C[i][j] = sum over k of (A[i][k] - ZERO_A) *
// (B[k][j] - ZERO_B) in int32 arithmetic, which wraps on overflow like two's complement, so every summation
// order gives the same bits and C is exact. Built per input type: INPUT_I8 (A and B signed), INPUT_U8 (both
// unsigned), INPUT_U8I8 (A unsigned, B signed).
//
// A and B are words of four 8-bit values, element i in byte i % 4 of word i / 4 (lowest first). A workgroup
// owns a BM x BN tile of C and walks k in steps of BK through two k-major shared tiles that hold the values
// with the zero points already subtracted (zeros past the edges, which add nothing); each invocation owns a
// TM x TN register tile of int32 sums. Same tuned specialization constants as gemm_tiled.comp, so the family's
// description serves both: 0: workgroup size = (BM/TM) * (BN/TN)   1: BM   2: BN   3: BK   4: TM   5: TN.
// Problem constants 28 and 29 are the zero points. No epilogue: alpha 1, beta 0, no bias or activation.
// With SPLIT > 1 (the splitk family) workgroup z covers product z / SPLIT and k range z % SPLIT and writes its
// int32 partial sums to that range's scratch plane; splitk_reduce_int.comp adds the planes (wrapping, so C is
// the same bits as one pass).
//
// With USE_DOT (built with glslang 15 into kernels/prebuilt/, used where the device has
// shaderIntegerDotProduct) the shared tiles hold the raw bytes, four consecutive k of a row (column) to a word,
// and each step multiplies four terms with one packed dot product (GL_EXT_integer_dot_product). The zero
// points then come in afterwards: sum (a - za)(b - zb) = sum ab - zb sum a - za sum b + K za zb, with the row
// sums of A and column sums of B taken by the same dot products against packed ones; every term wraps like the
// direct form, so the result is the same int32. Needs BK to be a multiple of 4 (the family's are 8, 16, 32).

#extension GL_EXT_control_flow_attributes : enable
#extension GL_GOOGLE_include_directive : enable
#if defined(USE_DOT)
#extension GL_EXT_integer_dot_product : require
#endif

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint BM = 64;
layout(constant_id = 2) const uint BN = 64;
layout(constant_id = 3) const uint BK = 16;
layout(constant_id = 4) const uint TM = 4;
layout(constant_id = 5) const uint TN = 4;
layout(constant_id = 28) const int ZERO_A = 0;
layout(constant_id = 29) const int ZERO_B = 0;

#define INTEGER_OPERANDS 1
layout(std430, binding = 0) readonly buffer BufA { uint a_words[]; };
layout(std430, binding = 1) readonly buffer BufB { uint b_words[]; };
#include "common/gemm_common.glsl"
// C and the split-k scratch planes as int32 (the same bindings as gemm_common.glsl's float views).
layout(std430, binding = 2) writeonly buffer BufCInt { int c_int[]; };
layout(std430, binding = 4) writeonly buffer BufScratchInt { int scratch_int[]; };

/// Stores one sum: to C, or with split-k to the range's scratch plane.
void store_sum(uint z, uint range, uint i, uint j, int value) {
  if (SPLIT > 1) {
    scratch_int[scratch_index(z, range, i, j)] = value;
  } else {
    c_int[c_index(z, i, j)] = value;
  }
}

#include "common/int8.glsl"

const uint RX = BN / TN;  // invocations across the columns of the tile
const uint RY = BM / TM;  // invocations across its rows
const uint WG_SIZE = RX * RY;
const uint A_LOADS = (BM * BK + WG_SIZE - 1) / WG_SIZE;
const uint B_LOADS = (BK * BN + WG_SIZE - 1) / WG_SIZE;

#if defined(USE_DOT)
const uint K4 = BK / 4;  // packed words per row (column) per step
const uint A_WORDS = (BM * K4 + WG_SIZE - 1) / WG_SIZE;
const uint B_WORDS = (K4 * BN + WG_SIZE - 1) / WG_SIZE;
shared uint tile_a4[K4 * BM];  // word (k4, row): bytes of k = 4 k4 .. 4 k4 + 3, lowest first
shared uint tile_b4[K4 * BN];
const uint ONES = 0x01010101u;

/// The byte of element i of a word array (0 past the operand's edge is the caller's).
uint raw_byte(uint word, uint i) { return bitfieldExtract(word, int(i & 3u) * 8, 8); }

/// Packed dot products of four 8-bit pairs, signed or unsigned per operand as the input type says.
int dot4(uint a, uint b) {
  if (A_SIGNED && B_SIGNED) return dotPacked4x8EXT(int(a), int(b));
  if (!A_SIGNED && !B_SIGNED) return int(dotPacked4x8EXT(a, b));
  return dotPacked4x8EXT(int(b), a);  // u8i8: B signed, A unsigned
}
int sum4(uint w, bool is_signed) { return is_signed ? dotPacked4x8EXT(int(w), ONES) : int(dotPacked4x8EXT(w, ONES)); }

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint tx = lid % RX, ty = lid / RX;
  const uint row0 = (gl_WorkGroupID.y + p.base_y) * BM;
  const uint col0 = (gl_WorkGroupID.x + p.base_x) * BN;
  const uint zs = gl_WorkGroupID.z + p.base_z;
  const uint z = zs / SPLIT, range = zs % SPLIT;
  const uint k_begin = range * p.k_split;
  const uint k_end = min(p.K, k_begin + p.k_split);

  int acc[TM][TN], row_sum[TM], col_sum[TN];
  [[unroll]] for (uint i = 0; i < TM; ++i) {
    row_sum[i] = 0;
    [[unroll]] for (uint j = 0; j < TN; ++j) acc[i][j] = 0;
  }
  [[unroll]] for (uint j = 0; j < TN; ++j) col_sum[j] = 0;

  for (uint k0 = k_begin; k0 < k_end; k0 += BK) {
    // One packed word per invocation and trip: four consecutive k of a row of A (column of B), zero past the
    // edges. All loops inside the k loop are unrolled (llvmpipe's loop limit; see the plain form below).
    [[unroll]] for (uint j = 0; j < A_WORDS; ++j) {
      const uint w = lid + j * WG_SIZE;
      if (w >= BM * K4) break;
      const uint r = w % BM, k4 = w / BM, gr = row0 + r;
      uint packed = 0;
      [[unroll]] for (uint q = 0; q < 4; ++q) {
        const uint gk = k0 + 4 * k4 + q;
        if (gr < p.M && gk < k_end) {
          const uint i = index_op_a(z, gr, gk);
          packed = bitfieldInsert(packed, raw_byte(a_words[i >> 2], i), int(8 * q), 8);
        }
      }
      tile_a4[k4 * BM + r] = packed;
    }
    [[unroll]] for (uint j = 0; j < B_WORDS; ++j) {
      const uint w = lid + j * WG_SIZE;
      if (w >= K4 * BN) break;
      const uint c = w % BN, k4 = w / BN, gc = col0 + c;
      uint packed = 0;
      [[unroll]] for (uint q = 0; q < 4; ++q) {
        const uint gk = k0 + 4 * k4 + q;
        if (gc < p.N && gk < k_end) {
          const uint i = index_op_b(z, gk, gc);
          packed = bitfieldInsert(packed, raw_byte(b_words[i >> 2], i), int(8 * q), 8);
        }
      }
      tile_b4[k4 * BN + c] = packed;
    }
    barrier();
    [[unroll]] for (uint k4 = 0; k4 < K4; ++k4) {
      uint a[TM], b[TN];
      [[unroll]] for (uint i = 0; i < TM; ++i) a[i] = tile_a4[k4 * BM + ty + i * RY];
      [[unroll]] for (uint j = 0; j < TN; ++j) b[j] = tile_b4[k4 * BN + tx + j * RX];
      [[unroll]] for (uint i = 0; i < TM; ++i) row_sum[i] += sum4(a[i], A_SIGNED);
      [[unroll]] for (uint j = 0; j < TN; ++j) col_sum[j] += sum4(b[j], B_SIGNED);
      [[unroll]] for (uint i = 0; i < TM; ++i) [[unroll]] for (uint j = 0; j < TN; ++j) acc[i][j] += dot4(a[i], b[j]);
    }
    barrier();
  }

  const int k_zz =
      int(k_end > k_begin ? k_end - k_begin : 0u) * ZERO_A * ZERO_B;  // this range's terms; wraps like the direct sum
  [[unroll]] for (uint i = 0; i < TM; ++i) {
    [[unroll]] for (uint j = 0; j < TN; ++j) {
      const uint gr = row0 + ty + i * RY, gc = col0 + tx + j * RX;
      if (gr < p.M && gc < p.N)
        store_sum(z, range, gr, gc, acc[i][j] - ZERO_B * row_sum[i] - ZERO_A * col_sum[j] + k_zz);
    }
  }
}
#else
shared int tile_a[BK * BM];  // k-major: element (kk, row) at kk * BM + row
shared int tile_b[BK * BN];  // k-major: element (kk, col) at kk * BN + col

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint tx = lid % RX, ty = lid / RX;
  const uint row0 = (gl_WorkGroupID.y + p.base_y) * BM;
  const uint col0 = (gl_WorkGroupID.x + p.base_x) * BN;
  const uint zs = gl_WorkGroupID.z + p.base_z;
  const uint z = zs / SPLIT, range = zs % SPLIT;
  const uint k_begin = range * p.k_split;
  const uint k_end = min(p.K, k_begin + p.k_split);

  int acc[TM][TN];
  [[unroll]] for (uint i = 0; i < TM; ++i) [[unroll]] for (uint j = 0; j < TN; ++j) acc[i][j] = 0;

  for (uint k0 = k_begin; k0 < k_end; k0 += BK) {
    // Consecutive invocations take consecutive elements along the direction contiguous in memory. Every loop
    // inside the k loop has a constant trip count and is unrolled: llvmpipe stops a loop after 65535 iterations
    // counted over the whole dispatch, which inner loops reached at K = 131072 (and then summed too few terms).
    [[unroll]] for (uint j = 0; j < A_LOADS; ++j) {
      const uint e = lid + j * WG_SIZE;
      if (e >= BM * BK) break;
      const uint r = TRANS_A ? e % BM : e / BK, kk = TRANS_A ? e / BM : e % BK;
      const uint gr = row0 + r, gk = k0 + kk;
      int v = 0;
      if (gr < p.M && gk < k_end) {
        const uint i = index_op_a(z, gr, gk);
        v = byte_value(a_words[i >> 2], i, A_SIGNED) - ZERO_A;
      }
      tile_a[kk * BM + r] = v;
    }
    [[unroll]] for (uint j = 0; j < B_LOADS; ++j) {
      const uint e = lid + j * WG_SIZE;
      if (e >= BK * BN) break;
      const uint c = TRANS_B ? e / BK : e % BN, kk = TRANS_B ? e % BK : e / BN;
      const uint gc = col0 + c, gk = k0 + kk;
      int v = 0;
      if (gc < p.N && gk < k_end) {
        const uint i = index_op_b(z, gk, gc);
        v = byte_value(b_words[i >> 2], i, B_SIGNED) - ZERO_B;
      }
      tile_b[kk * BN + c] = v;
    }
    barrier();
    [[unroll]] for (uint kk = 0; kk < BK; ++kk) {
      int a[TM], b[TN];
      [[unroll]] for (uint i = 0; i < TM; ++i) a[i] = tile_a[kk * BM + ty + i * RY];
      [[unroll]] for (uint j = 0; j < TN; ++j) b[j] = tile_b[kk * BN + tx + j * RX];
      [[unroll]] for (uint i = 0; i < TM; ++i) [[unroll]] for (uint j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
    }
    barrier();
  }

  [[unroll]] for (uint i = 0; i < TM; ++i) {
    [[unroll]] for (uint j = 0; j < TN; ++j) {
      const uint gr = row0 + ty + i * RY, gc = col0 + tx + j * RX;
      if (gr < p.M && gc < p.N) store_sum(z, range, gr, gc, acc[i][j]);
    }
  }
}
#endif
