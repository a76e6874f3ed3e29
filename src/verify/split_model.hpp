// f32 GEMM on 16-bit matrix units, modelled on the host (issue 44): each f32 operand is split once into 16-bit
// parts, a few products of the parts run on the units (each product exact in f32, the sums rounded as the units
// round), and the partial sums are recombined on the FMA units. The model decides which split meets f32's bounds on
// any data before a kernel is written, and is the reference the kernel's numerics are held to.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace gemmtune {

enum class SplitScheme {
  bf16x3,  ///< hi, mid parts of bf16: hi*hi + hi*mid + mid*hi (about 16 bits)
  bf16x6,  ///< hi, mid, lo parts of bf16: the six products of order <= 2 (f32-like)
  f16x3,   ///< f16 hi and lo (the residual scaled by 2^11): hi*hi + (hi*lo + lo*hi) / 2^11 (Ootomo and Yokota 2022)
};

/// How the units round their f32 sums (NVIDIA's tensor cores truncate).
enum class UnitRounding { nearest, toward_zero };

struct SplitModel {
  SplitScheme scheme = SplitScheme::f16x3;
  UnitRounding rounding = UnitRounding::toward_zero;
  /// The high product's sums leave the units every `block_k` terms (a zeroed fragment each k step, added to an f32
  /// accumulator on the FMA units, so truncation acts on one step's sum only); 0: one unit accumulator for all of k.
  uint32_t block_k = 32;
  /// The correction products likewise leave the units every `block_k` terms (a second zeroed fragment); false: one
  /// unit accumulator of corrections for all of k.
  bool block_corrections = false;
  /// f16 parts: A's rows and B's columns scaled by powers of two so their largest magnitude is in [0.5, 1) (exact;
  /// undone after the sum): without it f16's exponent range loses what f32 data holds outside 2^-24..65504.
  bool scale_rows = true;
  /// The kernel's form: each step's corrections, then its high products, added to one f32 accumulator (on the FMA
  /// units, rounded to nearest), rather than to two added at the end. Needs `block_corrections`.
  bool one_accumulator = false;
};

/// The 16-bit parts of `x` as f32 values: the first `parts` of bf16 hi, mid, lo (hi + mid + lo == x where the
/// parts stay normal, |x| >= 2^-100); f16 hi and the residual times 2^11.
std::vector<float> bf16_parts(float x, int parts);
std::vector<float> f16_parts(float x);

/// C = A B for row-major M x K A and K x N B, as the split kernel computes it.
std::vector<float> split_gemm(std::span<const float> a, std::span<const float> b, uint32_t m, uint32_t n, uint32_t k,
                              const SplitModel& model);

/// C = A B with one f32 fma per term in k order (what the SIMT kernels compute).
std::vector<float> native_gemm(std::span<const float> a, std::span<const float> b, uint32_t m, uint32_t n, uint32_t k);

/// Errors of `c` against the float64 product: max|c - ref| / max|ref| (the tuner's metric), max over elements of
/// |c - ref| / (|A| |B|)_ij (what f32's error bound scales with: meaningful under cancellation too), and the
/// tuner's element-wise check, max |c - ref| / |ref| over |ref| > 1e-3 max|ref|.
struct SplitErrors {
  double normwise = 0, elementwise = 0, relative = 0;
};
SplitErrors split_errors(std::span<const float> c, std::span<const float> a, std::span<const float> b, uint32_t m,
                         uint32_t n, uint32_t k);

}  // namespace gemmtune
