// Block-quantized codes (ggml's q8_0 and q4_0, src/core/block_format.hpp) decoded to f16 without conversions, as
// gemm_qrowmma.comp puts them in its fragments: a lane takes the 8 codes of a block's row that one 32-bit word of
// code bytes holds (q4_0: byte 4t..4t+3 of the codes, whose low nibbles are k = 4t..4t+3 and high nibbles k = 16 +
// 4t..; q8_0: two words, code bytes 8t..8t+7), in two halves of 4 consecutive k each. Needs
// GL_EXT_shader_explicit_arithmetic_types_float16; B_Q8 defined for q8_0. Checked on lavapipe by
// tests/gpu/test_quant_halves.cpp through kernels/test_quant_halves.comp.

/// The first k, within a block, of half h (0, 1) of lane t's (0..3) 8 values.
uint lane_half_k(uint t, uint h) {
#if defined(B_Q8)
  return 8 * t + 4 * h;
#else
  return 4 * t + 16 * h;
#endif
}

/// Four codes (the bytes of `biased`, each code + `bias`, the format's offset) times `scale`, as f16 packed in pairs
/// in byte order: `hi` the product rounded once, `lo` what the rounding left, exactly (scale x code has at most 19
/// significant bits, so hi + lo is the product). A byte OR-ed into the bits of the half 1024.0 (0x6400) is 1024 + byte
/// exactly, so subtracting 1024 + offset leaves the code exactly.
void codes_to_halves(uint biased, float16_t bias, f16vec2 scale, out uvec2 hi, out uvec2 lo) {
  const uint even = (biased & 0x00ff00ffu) | 0x64006400u, odd = ((biased >> 8) & 0x00ff00ffu) | 0x64006400u;
  const f16vec2 ce = unpackFloat2x16(even) - f16vec2(bias), co = unpackFloat2x16(odd) - f16vec2(bias);
  const f16vec2 he = ce * scale, ho = co * scale;
  const uint e = packFloat2x16(he), o = packFloat2x16(ho);
  // precise: fma with one rounding (GLSL may otherwise round the product first, which leaves nothing).
  precise const f16vec2 re = fma(ce, scale, -he), ro = fma(co, scale, -ho);
  const uint le = packFloat2x16(re), lo_o = packFloat2x16(ro);
  hi = uvec2((e & 0xffffu) | (o << 16), (e >> 16) | (o & 0xffff0000u));
  lo = uvec2((le & 0xffffu) | (lo_o << 16), (le >> 16) | (lo_o & 0xffff0000u));
}

/// A lane's 8 values of a block's row: the scale in the low half of `scale_word`, its code words (`code1` q8_0
/// only). Half 0 in .xy, half 1 in .zw; `lo` what rounding the products to f16 left.
uvec4 lane_halves(uint scale_word, uint code0, uint code1, out uvec4 lo) {
  const float16_t s = unpackFloat2x16(scale_word & 0xffffu).x;
  const f16vec2 scale = f16vec2(s, s);
  uvec2 h0, h1, l0, l1;
#if defined(B_Q8)
  const float16_t bias = float16_t(1152.0);  // 1024 + 128: an int8 byte with its sign bit flipped is code + 128
  codes_to_halves(code0 ^ 0x80808080u, bias, scale, h0, l0);
  codes_to_halves(code1 ^ 0x80808080u, bias, scale, h1, l1);
#else
  const float16_t bias = float16_t(1032.0);  // 1024 + 8: a nibble is code + 8
  codes_to_halves(code0 & 0x0f0f0f0fu, bias, scale, h0, l0);
  codes_to_halves((code0 >> 4) & 0x0f0f0f0fu, bias, scale, h1, l1);
#endif
  lo = uvec4(l0, l1);
  return uvec4(h0, h1);
}
