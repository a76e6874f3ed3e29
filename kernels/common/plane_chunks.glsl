// B's blocks decoded inside the main pass (gemm_coopmat.comp built with B_PLANE, OVERLAP = 1; rules::DispatchRule::
// decode_in_main): the grid has one extra row of workgroups, y = 0, before the tiles' rows. Workgroup x of that row
// decodes the BN rows of B that column x of tiles reads, into the plane the decoding pre-pass would write
// (plane_index), one chunk of PLANE_CHUNK k at a time, and raises the chunk's flag when it is whole; a tile waits on a
// chunk's flag only when its k loop is about to load from that chunk. So the decoding runs beside the tiles instead of
// in a pass before them, and a tile waits at most for the first chunk. Decoders never wait, and being the grid's
// first row they start first, so a tile only waits for work already under way.
// Flags (binding 5, zero between runs): word 0 counts the tiles that finished; the last resets every word. Flag
// 1 + (plane x columns + column) x chunks + chunk, plane 0 where B is shared by the batch. The kernel's rule keeps the
// grid in one dispatch (gl_NumWorkGroups is the whole grid). Include after the plane's declaration (plane_vec) and
// scaled_code_pair.

layout(constant_id = 7) const uint OVERLAP = 0;
const uint PLANE_CHUNK = 512;  // rules::kDecodeChunk
const uint CHUNK_BLOCKS = PLANE_CHUNK / 32;

layout(std430, binding = 4) writeonly buffer BufPlaneOut { uvec4 plane_out[]; };
// What the tiles read of a chunk another workgroup decoded in this dispatch: coherent, read after the flag.
layout(std430, binding = 4) coherent readonly buffer BufPlaneShared { uvec4 plane_shared[]; };
layout(std430, binding = 5) coherent buffer BufChunkFlags { uint chunk_flags[]; };

uvec4 plane_group(uint i) { return OVERLAP != 0 ? plane_shared[i] : plane_vec[i]; }

uint plane_chunks() { return (p.K + PLANE_CHUNK - 1) / PLANE_CHUNK; }
uint chunk_flag(uint z, uint column, uint chunk) {
  const uint plane = p.stride_b != 0u ? z : 0u;
  return 1 + (plane * gl_NumWorkGroups.x + column) * plane_chunks() + chunk;
}

/// Group g (0..3, 8 elements) of the block starting at byte `byte0`, decoded as the staging decodes it.
uvec4 decoded_block_group(uint byte0, uint g) {
  const uint scale_bits = (b_words[byte0 >> 2] >> (8 * (byte0 & 2u))) & 0xffffu;
  const f16vec2 scale = unpackFloat2x16(scale_bits | (scale_bits << 16));
#if defined(B_Q8)
  const uint w0 = b_word_at(byte0 + 2 + 8 * g) ^ Q8_SIGN_BITS, w1 = b_word_at(byte0 + 6 + 8 * g) ^ Q8_SIGN_BITS;
#else
  // Codes 16..31 are the high nibbles of code bytes 0..15.
  const uint at = byte0 + 2 + 8 * (g & 1u), shift = g >= 2 ? 4 : 0;
  const uint w0 = (b_word_at(at) >> shift) & 0x0f0f0f0fu, w1 = (b_word_at(at + 4) >> shift) & 0x0f0f0f0fu;
#endif
  return uvec4(scaled_code_pair(w0, scale), scaled_code_pair(w0 >> 16, scale), scaled_code_pair(w1, scale),
               scaled_code_pair(w1 >> 16, scale));
}

/// The decoder workgroup of column `column`: its rows of B, chunk by chunk, each chunk's flag raised once whole.
void decode_column_chunks(uint column, uint z, uint lid, uint group_size) {
  if (p.alpha == 0.0 || (p.stride_b == 0u && z > 0)) return;  // nothing reads the plane, or plane 0 serves z
  const uint row0 = column * BN, chunks = plane_chunks();
  for (uint c = 0; c < chunks; ++c) {
    // Neighbouring invocations take neighbouring blocks of a row: contiguous bytes in, contiguous groups out.
    for (uint u = lid; u < BN * CHUNK_BLOCKS * 4; u += group_size) {
      const uint g = u % 4, b = u / 4, row = row0 + b / CHUNK_BLOCKS, k = c * PLANE_CHUNK + (b % CHUNK_BLOCKS) * 32;
      if (row >= p.N || k >= p.K) continue;
      const uint byte0 = (index_op_b(z, k, row) / 32) * BLOCK_BYTES;
      plane_out[plane_index(z, k + 8 * g, row) / 8] = decoded_block_group(byte0, g);
    }
    memoryBarrierBuffer();  // the chunk out before its flag
    barrier();
    if (lid == 0) atomicExchange(chunk_flags[chunk_flag(z, column, c)], 1u);
  }
}

/// A tile's wait before loading from `chunk`: one invocation polls the flag, the workgroup waits for it.
void wait_for_chunk(uint z, uint column, uint chunk, uint lid) {
  if (lid == 0) {
    while (atomicAdd(chunk_flags[chunk_flag(z, column, chunk)], 0u) == 0u) {
    }
    memoryBarrierBuffer();
  }
  barrier();
}

/// A tile's last step: counts itself done; the last tile of the grid clears every flag for the next run.
void finish_tile(uint lid) {
  barrier();
  if (lid != 0) return;
  const uint tiles = gl_NumWorkGroups.x * (gl_NumWorkGroups.y - 1) * gl_NumWorkGroups.z;
  if (atomicAdd(chunk_flags[0], 1u) != tiles - 1) return;
  const uint planes = p.stride_b != 0u ? gl_NumWorkGroups.z : 1u;
  for (uint f = 1; f <= planes * gl_NumWorkGroups.x * plane_chunks(); ++f) chunk_flags[f] = 0u;
  chunk_flags[0] = 0u;
}
