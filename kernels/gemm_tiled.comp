#version 450
// gemm_tiled: the portable tiled GEMM, C = alpha * A * B + beta * C, batched.
//
// A is M x K, B is K x N, C is M x N, all dense row-major; batch product z starts at z * stride_x elements.
// A workgroup owns a BM x BN tile of C and walks k in steps of BK through two shared-memory tiles; each
// invocation owns a TM x TN register tile whose rows are RY = BM/TM apart and columns RX = BN/TN apart
// (interleaved), so neighbouring invocations read neighbouring shared-memory words and write neighbouring
// columns of C. Staging is bounds-checked (zero fill), so any M, N, K works.
//
// Specialization constants (id: meaning):
//   0: workgroup size, must equal (BM/TM) * (BN/TN)     1: BM, rows of C per workgroup
//   2: BN, columns of C per workgroup                   3: BK, k terms per shared-memory step
//   4: TM, rows per invocation                          5: TN, columns per invocation
// Input type (one define): INPUT_F32, INPUT_F16 or INPUT_BF16. 16-bit inputs are read as pairs inside
// 32-bit words, so no 16-bit storage feature is needed. Products and sums are f32; C is f32.
// Summation order depends only on the shape and the config: k ascends in every invocation, no atomics.

#extension GL_EXT_control_flow_attributes : enable

layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint BM = 64;
layout(constant_id = 2) const uint BN = 64;
layout(constant_id = 3) const uint BK = 16;
layout(constant_id = 4) const uint TM = 4;
layout(constant_id = 5) const uint TN = 4;

layout(push_constant) uniform Params {
  uint M;
  uint N;
  uint K;
  uint stride_a;  // elements between batch products
  uint stride_b;
  uint stride_c;
  float alpha;
  float beta;     // 0: C is never read
} p;

#if defined(INPUT_F32)
layout(std430, binding = 0) readonly buffer BufA { float a_data[]; };
layout(std430, binding = 1) readonly buffer BufB { float b_data[]; };
float load_a(uint i) { return a_data[i]; }
float load_b(uint i) { return b_data[i]; }
#else
layout(std430, binding = 0) readonly buffer BufA { uint a_data[]; };
layout(std430, binding = 1) readonly buffer BufB { uint b_data[]; };
// Element i lives in word i/2, low half first (little-endian packing of consecutive elements).
float decode16(uint word, uint i) {
#if defined(INPUT_F16)
  vec2 pair = unpackHalf2x16(word);
  return (i & 1u) == 0u ? pair.x : pair.y;
#elif defined(INPUT_BF16)
  uint bits = (i & 1u) == 0u ? (word << 16) : (word & 0xffff0000u);
  return uintBitsToFloat(bits);
#else
#error "define INPUT_F32, INPUT_F16 or INPUT_BF16"
#endif
}
float load_a(uint i) { return decode16(a_data[i >> 1], i); }
float load_b(uint i) { return decode16(b_data[i >> 1], i); }
#endif

layout(std430, binding = 2) buffer BufC { float c_data[]; };

// A is staged with consecutive invocations on consecutive k, so its k-major tile gets one float of padding per
// k row: without it those stores hit one shared-memory bank (a BM-word stride).
const uint A_STRIDE = BM + 1;
shared float tile_a[BK * A_STRIDE];  // k-major: tile_a[kk * A_STRIDE + row]
shared float tile_b[BK * BN];  // k-major: tile_b[kk * BN + col]

void main() {
  const uint RX = BN / TN;
  const uint RY = BM / TM;
  const uint WG = gl_WorkGroupSize.x;
  const uint lid = gl_LocalInvocationID.x;
  const uint tx = lid % RX;
  const uint ty = lid / RX;
  const uint row0 = gl_WorkGroupID.y * BM;
  const uint col0 = gl_WorkGroupID.x * BN;
  const uint a_base = gl_WorkGroupID.z * p.stride_a;
  const uint b_base = gl_WorkGroupID.z * p.stride_b;
  const uint c_base = gl_WorkGroupID.z * p.stride_c;

  float acc[TM * TN];
  [[unroll]] for (uint i = 0; i < TM * TN; ++i) acc[i] = 0.0;

  for (uint k0 = 0; k0 < p.K; k0 += BK) {
    // Consecutive invocations read consecutive k of A and consecutive columns of B (coalesced).
    for (uint i = lid; i < BM * BK; i += WG) {
      const uint r = i / BK, kk = i % BK;
      const uint gr = row0 + r, gk = k0 + kk;
      tile_a[kk * A_STRIDE + r] = (gr < p.M && gk < p.K) ? load_a(a_base + gr * p.K + gk) : 0.0;
    }
    for (uint i = lid; i < BK * BN; i += WG) {
      const uint kk = i / BN, cc = i % BN;
      const uint gk = k0 + kk, gc = col0 + cc;
      tile_b[kk * BN + cc] = (gk < p.K && gc < p.N) ? load_b(b_base + gk * p.N + gc) : 0.0;
    }
    barrier();
    for (uint kk = 0; kk < BK; ++kk) {
      float av[TM];
      float bv[TN];
      [[unroll]] for (uint i = 0; i < TM; ++i) av[i] = tile_a[kk * A_STRIDE + ty + i * RY];
      [[unroll]] for (uint j = 0; j < TN; ++j) bv[j] = tile_b[kk * BN + tx + j * RX];
      [[unroll]] for (uint i = 0; i < TM; ++i) {
        [[unroll]] for (uint j = 0; j < TN; ++j) acc[i * TN + j] = fma(av[i], bv[j], acc[i * TN + j]);
      }
    }
    barrier();
  }

  [[unroll]] for (uint i = 0; i < TM; ++i) {
    const uint gr = row0 + ty + i * RY;
    if (gr >= p.M) continue;
    [[unroll]] for (uint j = 0; j < TN; ++j) {
      const uint gc = col0 + tx + j * RX;
      if (gc >= p.N) continue;
      const uint idx = c_base + gr * p.N + gc;
      float v = p.alpha * acc[i * TN + j];
      if (p.beta != 0.0) v = fma(p.beta, c_data[idx], v);
      c_data[idx] = v;
    }
  }
}
