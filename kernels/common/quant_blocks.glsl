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
/// Bytes at .. at + 3 of B (at even): the word, or two words' halves where they start mid-word.
uint b_word_at(uint at) {
  const uint lo = b_words[at >> 2];
  if ((at & 2u) == 0u) return lo;
  return (lo >> 16) | (b_words[(at >> 2) + 1] << 16);
}
/// The scale of the block starting at byte `byte0` (even).
float block_scale(uint byte0) { return unpackHalf2x16((b_words[byte0 >> 2] >> (8 * (byte0 & 2u))) & 0xffffu).x; }

// Codes become floats without integer-to-float conversions (which issue at a fraction of the FMA rate on some
// GPUs): a byte OR-ed into the mantissa of 2^23 is the float 2^23 + byte exactly, and subtracting 2^23 plus the
// code's offset leaves the code, exactly.
const uint TWO_POW_23_BITS = 0x4B000000u;
float biased_byte(uint byte) { return uintBitsToFloat(TWO_POW_23_BITS | byte); }
/// The four bytes of a word as floats 2^23 + byte.
vec4 biased_bytes(uint w) {
  return vec4(biased_byte(w & 0xffu), biased_byte((w >> 8) & 0xffu), biased_byte((w >> 16) & 0xffu),
              biased_byte(w >> 24));
}
#if defined(B_Q8)
const uint Q8_SIGN_BITS = 0x80808080u;  // each int8 byte's sign bit: flipped, the byte is code + 128
const float CODE_BIAS = 8388736.0;      // 2^23 + 128
/// Four q8_0 codes: the int8 bytes of a word.
vec4 q8_codes(uint w) { return biased_bytes(w ^ Q8_SIGN_BITS) - CODE_BIAS; }
#else
const float CODE_BIAS = 8388616.0;  // 2^23 + 8: a q4_0 nibble is code + 8
/// The low nibbles (codes j) or high nibbles (codes j + 16) of a word of q4_0 code bytes j .. j + 3.
vec4 q4_low_codes(uint w) { return biased_bytes(w & 0x0f0f0f0fu) - CODE_BIAS; }
vec4 q4_high_codes(uint w) { return biased_bytes((w >> 4) & 0x0f0f0f0fu) - CODE_BIAS; }
#endif

/// Element e (0..31) of the block starting at byte `byte0`, as a multiple of its scale.
float block_code(uint byte0, uint e) {
#if defined(B_Q8)
  return biased_byte(b_byte(byte0 + 2 + e) ^ (Q8_SIGN_BITS & 0xffu)) - CODE_BIAS;
#else
  const uint packed = b_byte(byte0 + 2 + (e & 15u));
  return biased_byte(e < 16 ? packed & 15u : packed >> 4) - CODE_BIAS;
#endif
}
/// B's element at element index i, decoded (scale x code: exact in f32).
float load_b_block_elem(uint i) {
  const uint byte0 = (i / 32) * BLOCK_BYTES;
  return block_scale(byte0) * block_code(byte0, i % 32);
}

float load_op_a(uint z, uint i, uint kk) { return load_a(index_op_a(z, i, kk)); }
/// Where the decoding pre-pass (decode_blocks.comp) puts op(B)[z][kk][j] in the scratch buffer: f16, packed N x K
/// per matrix of B (one where the batch shares it).
uint plane_index(uint z, uint kk, uint j) { return (p.stride_b != 0u ? z * p.N * p.K : 0u) + j * p.K + kk; }
#if defined(B_PLANE)
// B read from that plane.
layout(std430, binding = 4) readonly buffer BufPlane { uint plane_words[]; };
float load_op_b(uint z, uint kk, uint j) {
  const uint i = plane_index(z, kk, j);
  const vec2 pair = unpackHalf2x16(plane_words[i >> 1]);
  return (i & 1u) == 0u ? pair.x : pair.y;
}
#else
float load_op_b(uint z, uint kk, uint j) { return load_b_block_elem(index_op_b(z, kk, j)); }
#endif
