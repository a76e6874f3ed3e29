// The parts of B's blocks the decoding kernels (gemm_qrowdot.comp, gemm_qrowdp.comp) stream: with LANES 2 or 4,
// neighbouring invocations share a block, each a half or a quarter of its codes, and load AHEAD blocks' words before
// using any. Declare ROWS, LANES and AHEAD and include after common/quant_blocks.glsl.

// A part of a block: with LANES 4 a quarter, with LANES 2 a half, each PART_WORDS words of its code bytes: codes
// 4 PART_WORDS h .. 4 PART_WORDS (h + 1) - 1 of part h (q8_0), or the low and high nibbles of those bytes, which are
// codes 4 PART_WORDS h .. and 16 more (q4_0). RUNS runs of 4 consecutive codes a part.
#if defined(B_Q8)
const uint PART_WORDS = 8 / LANES;
const uint RUNS = PART_WORDS;
#else
const uint PART_WORDS = 4 / LANES;
const uint RUNS = 2 * PART_WORDS;
#endif

/// Element of the block (0..31) where run v (0..RUNS - 1) of part h starts.
uint run_element(uint h, uint v) {
#if defined(B_Q8)
  return 4 * (PART_WORDS * h + v);
#else
  return v < PART_WORDS ? 4 * (PART_WORDS * h + v) : 16 + 4 * (PART_WORDS * h + v - PART_WORDS);
#endif
}

// Parts loaded ahead (slot u of AHEAD): for each of the workgroup's ROWS rows of B, the word whose low half is the
// block's scale, and the part's code words.
uint ahead_scale[AHEAD * ROWS], ahead_words[AHEAD * ROWS * PART_WORDS];

/// Loads part `h` of block `blk` of each row into slot u. Addresses come from each row's first byte (`row_byte`), so
/// a step costs adds.
void load_part(uint row_byte[ROWS], uint blk, uint h, uint u) {
  const uint e0 = 4 * PART_WORDS * h;  // the part's first code byte
  const uint blk_byte = blk * BLOCK_BYTES;
  const uint last = uint(b_words.length()) - 1;
  [[unroll]] for (uint r = 0; r < ROWS; ++r) {
    const uint byte0 = row_byte[r] + blk_byte, slot = u * ROWS + r;
    if (PART_WORDS == 1) {
      // One word (q4_0's quarters): read as it lies, which held fewer registers ahead than the form below.
      ahead_scale[slot] = b_words[byte0 >> 2] >> (8 * (byte0 & 2u));
      ahead_words[slot] = b_word_at(byte0 + 2 + e0);
    } else {
      // The PART_WORDS + 1 words that may hold the code words are loaded always (clamped to the buffer) and the
      // half-word shift is a select, so each code word reuses its neighbour's upper word and neighbouring blocks,
      // which alternate between starting on a word and mid-word, do not split the subgroup.
      const uint at = byte0 + 2 + e0, w = at >> 2;
      const bool mid = (at & 2u) != 0u;
      ahead_scale[slot] = b_words[byte0 >> 2] >> (mid ? 0 : 16);
      uint x = b_words[w];
      [[unroll]] for (uint t = 0; t < PART_WORDS; ++t) {
        const uint next = b_words[min(w + t + 1, last)];
        ahead_words[slot * PART_WORDS + t] = mid ? (x >> 16) | (next << 16) : x;
        x = next;
      }
    }
  }
}
