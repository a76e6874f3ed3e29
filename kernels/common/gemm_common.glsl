// Shared by every GEMM kernel: the push-constant block, the problem's specialization constants, the bindings,
// element addressing for every layout, and the epilogue (alpha, beta, bias, activation).
//
// Problem constants (set by the runner from the request, not tuned):
//   20: TRANS_A  21: TRANS_B  22: HAS_BIAS  23: ACTIVATION (0 none, 1 relu, 2 gelu-erf, 3 gelu-tanh)
//   24: DETERMINISTIC (fixed summation order)  25: SPLIT (split-k ranges; 1 = none)  26, 27: ALIGNED_A/_B
// Bindings: 0 A, 1 B, 2 C, 3 bias, 4 split-k scratch (planes of raw sums). Unused ones get a small dummy buffer.
// Element (z, r, c) of a stored operand is at off + z * stride + r * ld + c (all in elements).

layout(constant_id = 20) const bool TRANS_A = false;
layout(constant_id = 21) const bool TRANS_B = false;
layout(constant_id = 22) const bool HAS_BIAS = false;
layout(constant_id = 23) const uint ACTIVATION = 0;
layout(constant_id = 24) const bool DETERMINISTIC = false;
layout(constant_id = 25) const uint SPLIT = 1;
// 26, 27: every row of A (B) as stored starts on a 16-byte boundary (ld, offset and batch stride multiples of
// 16 bytes' worth of elements), so kernels may load 16 contiguous bytes at once.
#if defined(AB_PLANES)
// The main pass of an aligning pre-pass reads both operands from its planes, whose rows always start on 16 bytes.
const bool ALIGNED_A = true;
const bool ALIGNED_B = true;
#else
layout(constant_id = 26) const bool ALIGNED_A = false;
layout(constant_id = 27) const bool ALIGNED_B = false;
#endif

layout(push_constant) uniform Params {
  uint M, N, K;
  uint lda, ldb, ldc;
  uint off_a, off_b, off_c, off_bias;
  uint stride_a, stride_b, stride_c;
  uint base_x, base_y, base_z;  // workgroup offsets when a grid is split over several dispatches
  float alpha;                  // 0: A and B are never read
  float beta;                   // 0: C is never read
  uint k_split;                 // terms per split-k range (K when SPLIT = 1)
} p;

#if defined(COOPMAT_OPERANDS) || defined(INTEGER_OPERANDS) || defined(BLOCK_OPERANDS) || defined(ALIGN_PLANES_PASS)
// The cooperative-matrix kernels declare A and B in their own 16-bit type (see gemm_coopmat.comp), the
// integer kernels as words of four 8-bit values (see gemm_tiled_int.comp), the block-quantized ones B as words of
// blocks (see gemm_qrowdot.comp), the aligning pre-pass as 16-bit patterns (see align_planes.comp).
#elif defined(INPUT_F32)
layout(std430, binding = 0) readonly buffer BufA { float a_data[]; };
layout(std430, binding = 1) readonly buffer BufB { float b_data[]; };
// The same buffers as 16-byte vectors, for aligned rows.
layout(std430, binding = 0) readonly buffer BufA4 { vec4 a_vec4[]; };
layout(std430, binding = 1) readonly buffer BufB4 { vec4 b_vec4[]; };
float load_a_elem(uint i) { return a_data[i]; }
float load_b_elem(uint i) { return b_data[i]; }
#else
layout(std430, binding = 0) readonly buffer BufA { uint a_data[]; };
layout(std430, binding = 1) readonly buffer BufB { uint b_data[]; };
// Element i lives in word i/2, low half first.
float decode16(uint word, uint i) {
#if defined(INPUT_F16)
  vec2 pair = unpackHalf2x16(word);
  return (i & 1u) == 0u ? pair.x : pair.y;
#elif defined(INPUT_BF16)
  return uintBitsToFloat((i & 1u) == 0u ? (word << 16) : (word & 0xffff0000u));
#else
#error "define INPUT_F32, INPUT_F16 or INPUT_BF16"
#endif
}
float load_a_elem(uint i) { return decode16(a_data[i >> 1], i); }
float load_b_elem(uint i) { return decode16(b_data[i >> 1], i); }
#endif

layout(std430, binding = 2) buffer BufC { float c_data[]; };
layout(std430, binding = 3) readonly buffer BufBias { float bias_data[]; };
#if defined(B_PLANE) || defined(SPLIT_PLANES) || defined(AB_PLANES) || defined(A_PLANE)
// Binding 4 holds a pre-pass's output (rules::Prepass), which these builds declare themselves and only read: they
// have one k range, so no split-k sums are written there and the binding has no writable view.
#else
layout(std430, binding = 4) buffer BufScratch { float scratch_data[]; };
#endif

#if defined(AB_PLANES) || defined(ALIGN_PLANES_PASS)
#include "common/aligned_planes.glsl"
#endif
#if defined(AB_PLANES)
/// Indices of op(A)[z][i][kk] and op(B)[z][kk][j] in the aligning pre-pass's planes (binding 4).
uint index_op_a(uint z, uint i, uint kk) {
  return plane_a_base(z) + (TRANS_A ? kk * plane_ld_a() + i : i * plane_ld_a() + kk);
}
uint index_op_b(uint z, uint kk, uint j) {
  return plane_b_base(z) + (TRANS_B ? j * plane_ld_b() + kk : kk * plane_ld_b() + j);
}
#else
/// Buffer indices of op(A)[z][i][kk] and op(B)[z][kk][j].
uint index_op_a(uint z, uint i, uint kk) {
  return p.off_a + z * p.stride_a + (TRANS_A ? kk * p.lda + i : i * p.lda + kk);
}
uint index_op_b(uint z, uint kk, uint j) {
  return p.off_b + z * p.stride_b + (TRANS_B ? j * p.ldb + kk : kk * p.ldb + j);
}
#endif
#if !defined(COOPMAT_OPERANDS) && !defined(INTEGER_OPERANDS) && !defined(BLOCK_OPERANDS) && !defined(ALIGN_PLANES_PASS)
float load_op_a(uint z, uint i, uint kk) { return load_a_elem(index_op_a(z, i, kk)); }
float load_op_b(uint z, uint kk, uint j) { return load_b_elem(index_op_b(z, kk, j)); }
#endif
uint c_index(uint z, uint i, uint j) { return p.off_c + z * p.stride_c + i * p.ldc + j; }
/// Raw split-k sums: plane s of product z is M x N, packed.
uint scratch_index(uint z, uint s, uint i, uint j) { return ((z * SPLIT + s) * p.M + i) * p.N + j; }

// --- epilogue ----------------------------------------------------------------------------------------------
// Everything is `precise`: the fused epilogue must give the same bits as separate bias and activation passes,
// so no multiply may be contracted into a later add.

float erf_approx(float x) {
  // Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7), odd extension.
  precise float ax = abs(x);
  precise float t = 1.0 / (1.0 + 0.3275911 * ax);
  precise float poly =
      t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  precise float y = 1.0 - poly * exp(-ax * ax);
  return x < 0.0 ? -y : y;
}

float tanh_stable(float x) {
  // exp of a non-positive argument never overflows, so large |x| gives +-1, not NaN.
  precise float e = exp(-2.0 * abs(x));
  precise float y = (1.0 - e) / (1.0 + e);
  return x < 0.0 ? -y : y;
}

float activation(float x) {
  if (ACTIVATION == 1u) return x < 0.0 ? 0.0 : x;  // NaN stays NaN
  if (ACTIVATION == 2u) {
#if defined(FAULT_GELU_ERF_CONSTANT)  // planted fault (tests/gpu/test_planted_faults.cpp): 1/sqrt(2) cut to 4 digits
    precise float r = 0.5 * x * (1.0 + erf_approx(x * 0.7071));
#else
    precise float r = 0.5 * x * (1.0 + erf_approx(x * 0.70710678118654752));
#endif
    return r;
  }
  if (ACTIVATION == 3u) {
#if defined(FAULT_GELU_CONSTANT)  // planted fault (tests/gpu/test_planted_faults.cpp): sqrt(2/pi) cut to 4 digits
    precise float inner = 0.7978 * (x + 0.044715 * x * x * x);
#else
    precise float inner = 0.79788456080286536 * (x + 0.044715 * x * x * x);
#endif
    precise float r = 0.5 * x * (1.0 + tanh_stable(inner));
    return r;
  }
  return x;
}

/// The epilogue's steps, in order (finish is their composition): alpha * sum, + beta * C[z][i][j], + bias[j].
/// Kernels with large register tiles run each step over the whole tile in a loop of its own: one loop calling
/// finish for 64 values was not unrolled by the H200's driver, which then kept the tile in local memory.
float scaled(float sum) {
  precise float v = p.alpha * sum;
  return v;
}
float plus_c(float v, uint z, uint i, uint j) {
#if defined(FAULT_BETA_ZERO_READS_C)  // planted fault (tests/gpu/test_planted_faults.cpp): C read when beta = 0
  v = fma(p.beta, c_data[c_index(z, i, j)], v);
#else
  if (p.beta != 0.0) v = fma(p.beta, c_data[c_index(z, i, j)], v);
#endif
  return v;
}
float plus_bias(float v, uint j) {
#if defined(FAULT_BIAS_SHIFT)  // planted fault: the bias read one column over (the last column's from the guard band)
  if (HAS_BIAS) v = v + bias_data[p.off_bias + j + 1];
#else
  if (HAS_BIAS) v = v + bias_data[p.off_bias + j];
#endif
  return v;
}

/// alpha * sum + beta * C, then bias, then activation: the value stored at C[z][i][j].
float finish(float sum, uint z, uint i, uint j) { return activation(plus_bias(plus_c(scaled(sum), z, i, j), j)); }
