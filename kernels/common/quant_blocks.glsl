// Block-quantized B (ggml's q8_0 and q4_0, src/core/block_format.hpp) and its activations A (f16 or f32), for the
// kernels built with BLOCK_OPERANDS: the bindings and load_op_a / load_op_b in place of gemm_common.glsl's (the
// cooperative-matrix kernel keeps its own 16-bit A and decodes B's groups with block_scale and block_code). B's
// element index (as index_op_b gives it: stored N x K, ld, offset and stride multiples of 32) names block
// index / 32, whose bytes start at (index / 32) x BLOCK_BYTES: an f16 scale, then the codes. Blocks are 2-byte
// aligned, so B is read as 32-bit words and shifted. Include after common/gemm_common.glsl.
// Input defines: INPUT_<A><B>, A f16 or f32 (the activations), B q8 (q8_0) or q4 (q4_0).

#if defined(INPUT_F16Q8) || defined(INPUT_F16Q4)
#define A_F16 1
#endif
#if defined(INPUT_F16Q8) || defined(INPUT_F32Q8)
#define B_Q8 1
const uint BLOCK_BYTES = 34;
#elif defined(INPUT_F16Q4) || defined(INPUT_F32Q4)
const uint BLOCK_BYTES = 18;
#else
#error "define INPUT_F16Q8, INPUT_F16Q4, INPUT_F32Q8 or INPUT_F32Q4"
#endif

#if defined(A_F16)
layout(std430, binding = 0) readonly buffer BufQA { uint a_words[]; };
float load_a(uint i) {
  const vec2 pair = unpackHalf2x16(a_words[i >> 1]);
  return (i & 1u) == 0u ? pair.x : pair.y;
}
#else
layout(std430, binding = 0) readonly buffer BufQA { float a_floats[]; };
float load_a(uint i) { return a_floats[i]; }
#endif
layout(std430, binding = 1) readonly buffer BufQB { uint b_words[]; };

/// Byte b of B.
uint b_byte(uint b) { return bitfieldExtract(b_words[b >> 2], int(8 * (b & 3u)), 8); }
/// The scale of the block starting at byte `byte0` (even).
float block_scale(uint byte0) {
  return unpackHalf2x16(bitfieldExtract(b_words[byte0 >> 2], int(8 * (byte0 & 2u)), 16)).x;
}
/// Element e (0..31) of the block starting at byte `byte0`, as a multiple of its scale.
float block_code(uint byte0, uint e) {
#if defined(B_Q8)
  return float(bitfieldExtract(int(b_byte(byte0 + 2 + e)), 0, 8));
#else
  const uint packed = b_byte(byte0 + 2 + (e & 15u));
  return float(int(e < 16 ? packed & 15u : packed >> 4) - 8);
#endif
}
/// B's element at element index i, decoded (scale x code: exact in f32).
float load_b_block_elem(uint i) {
  const uint byte0 = (i / 32) * BLOCK_BYTES;
  return block_scale(byte0) * block_code(byte0, i % 32);
}

float load_op_a(uint z, uint i, uint kk) { return load_a(index_op_a(z, i, kk)); }
float load_op_b(uint z, uint kk, uint j) { return load_b_block_elem(index_op_b(z, kk, j)); }
