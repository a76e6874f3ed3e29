// An f32 value as three bfloat16 parts (gemm_bf16x6.comp): hi is the value rounded to nearest (ties to even), mid the
// rest rounded likewise, lo the rest of that; each rest is exact in f32, so hi + mid + lo is the value wherever the
// parts stay normal. Integer and f32 arithmetic only, so a module using it can be retyped to bfloat16
// (scripts/spirv_bf16.py); tests/gpu/test_bf16_split.cpp runs it on lavapipe against the host model's parts.

/// x rounded to bfloat16, its 16 bits; NaN stays a quiet NaN of its sign, and a finite value past bfloat16's largest
/// is truncated rather than rounded to infinity.
uint bf16_bits(float x) {
  const uint b = floatBitsToUint(x);
  if (isnan(x)) return 0x7fc0u | ((b >> 16) & 0x8000u);
  const uint r = (b + 0x7fffu + ((b >> 16) & 1u)) >> 16;
  return ((r & 0x7f80u) == 0x7f80u && !isinf(x)) ? b >> 16 : r;
}

/// The parts' 16 bits (hi, mid, lo) of x; an infinity's rests are zero, a NaN's NaN.
uvec3 bf16_split(float x) {
  const uint h = bf16_bits(x);
  precise float r1 = isinf(x) ? 0.0 : x - uintBitsToFloat(h << 16);
  const uint m = bf16_bits(r1);
  precise float r2 = r1 - uintBitsToFloat(m << 16);
  return uvec3(h, m, bf16_bits(r2));
}

/// The three parts of 8 raw f32 values (two vectors of bits), each as 8 packed 16-bit patterns (element 2i in the
/// low half of word i), as the part tiles hold them.
void split8(uvec4 first, uvec4 second, out uvec4 part0, out uvec4 part1, out uvec4 part2) {
  const uint v[8] = uint[8](first.x, first.y, first.z, first.w, second.x, second.y, second.z, second.w);
  uint w0[4], w1[4], w2[4];
  [[unroll]] for (uint e = 0; e < 8; e += 2) {
    const uvec3 a = bf16_split(uintBitsToFloat(v[e])), b = bf16_split(uintBitsToFloat(v[e + 1]));
    w0[e / 2] = a.x | (b.x << 16);
    w1[e / 2] = a.y | (b.y << 16);
    w2[e / 2] = a.z | (b.z << 16);
  }
  part0 = uvec4(w0[0], w0[1], w0[2], w0[3]);
  part1 = uvec4(w1[0], w1[1], w1[2], w1[3]);
  part2 = uvec4(w2[0], w2[1], w2[2], w2[3]);
}
