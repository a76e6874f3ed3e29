// The planes of the aligning pre-pass (rules::Prepass::align_ab in src/core/dispatch_rules.hpp, which holds the same
// layout): both 16-bit operands copied once in their stored orientation, K padded with zeros to a multiple of 64 and
// every row padded with zeros to whole 16-byte groups, so that the main pass stages every tile as 16-byte vectors
// with no partial k step. Per product z a region of A's plane then B's; an operand shared by every product (batch
// stride 0) has product 0's only. Included by gemm_common.glsl after the push constants.

uint round8(uint x) { return (x + 7u) / 8u * 8u; }
/// K as the main pass steps it: a multiple of 64, so that every step of BK 16, 32 or 64 is whole.
uint plane_k() { return (p.K + 63u) / 64u * 64u; }
/// Rows and leading dimension of each plane: A stored M x K (K x M transposed), B K x N (N x K).
uint plane_rows_a() { return TRANS_A ? plane_k() : p.M; }
uint plane_ld_a() { return TRANS_A ? round8(p.M) : plane_k(); }
uint plane_rows_b() { return TRANS_B ? p.N : plane_k(); }
uint plane_ld_b() { return TRANS_B ? plane_k() : round8(p.N); }
uint plane_region() { return plane_rows_a() * plane_ld_a() + plane_rows_b() * plane_ld_b(); }
/// The first element of product z's plane of A, and of B.
uint plane_a_base(uint z) { return (p.stride_a != 0u ? z : 0u) * plane_region(); }
uint plane_b_base(uint z) { return (p.stride_b != 0u ? z : 0u) * plane_region() + plane_rows_a() * plane_ld_a(); }
