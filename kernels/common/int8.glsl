// Shared by the 8-bit integer kernels: the signedness of A and B per input type (INPUT_I8: both signed,
// INPUT_U8: both unsigned, INPUT_U8I8: A unsigned, B signed) and the value of byte i of a word array.

#if defined(INPUT_I8)
const bool A_SIGNED = true, B_SIGNED = true;
#elif defined(INPUT_U8)
const bool A_SIGNED = false, B_SIGNED = false;
#elif defined(INPUT_U8I8)
const bool A_SIGNED = false, B_SIGNED = true;
#else
#error "define INPUT_I8, INPUT_U8 or INPUT_U8I8"
#endif

/// Byte `i` of a word array (element i in byte i % 4 of word i / 4, lowest first) as a signed or unsigned value.
int byte_value(uint word, uint i, bool is_signed) {
  const int offset = int(i & 3u) * 8;
  return is_signed ? bitfieldExtract(int(word), offset, 8) : int(bitfieldExtract(word, offset, 8));
}
