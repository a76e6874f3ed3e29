#include "verify/split_model.hpp"

#include <algorithm>
#include <cmath>

#include "verify/numeric.hpp"

namespace gemmtune {

namespace {

float to_bf16(float x) { return bf16_to_f32(f32_to_bf16(x)); }
float to_f16(float x) { return f16_to_f32(f32_to_f16(x)); }

/// a + b rounded to f32 as the units round.
float unit_add(float a, float b, UnitRounding rounding) {
  const double exact = double(a) + double(b);
  float r = float(exact);
  if (rounding == UnitRounding::toward_zero && std::fabs(double(r)) > std::fabs(exact)) r = std::nextafter(r, 0.0f);
  return r;
}

/// The power of two that brings the largest magnitude of `values` (strided) into [0.5, 1); 1 for all zeros.
float unit_scale(const float* values, uint32_t count, uint32_t stride) {
  float largest = 0;
  for (uint32_t i = 0; i < count; ++i) largest = std::max(largest, std::fabs(values[size_t(i) * stride]));
  if (largest == 0 || !std::isfinite(largest)) return 1.0f;
  int exponent = 0;
  std::frexp(largest, &exponent);  // largest = f * 2^exponent, f in [0.5, 1)
  return std::ldexp(1.0f, -exponent);
}

/// The product terms of a scheme: which part of A times which part of B, and whether it is the high product.
struct Term {
  int a_part, b_part;
  bool high;
};
std::vector<Term> terms_of(SplitScheme s) {
  switch (s) {
    case SplitScheme::bf16x3:
      return {{0, 0, true}, {0, 1, false}, {1, 0, false}};
    case SplitScheme::bf16x6:
      return {{0, 0, true}, {0, 1, false}, {1, 0, false}, {0, 2, false}, {1, 1, false}, {2, 0, false}};
    case SplitScheme::f16x3:
      return {{0, 0, true}, {0, 1, false}, {1, 0, false}};
  }
  return {};
}

}  // namespace

std::vector<float> bf16_parts(float x, int parts) {
  std::vector<float> out;
  float rest = x;
  for (int p = 0; p < parts; ++p) {
    out.push_back(to_bf16(rest));
    rest -= out.back();  // exact: the part is rest rounded to its leading bits
  }
  return out;
}

std::vector<float> f16_parts(float x) {
  const float hi = to_f16(x);
  return {hi, to_f16((x - hi) * 2048.0f)};
}

std::vector<float> split_gemm(std::span<const float> a, std::span<const float> b, uint32_t m, uint32_t n, uint32_t k,
                              const SplitModel& model) {
  const bool f16 = model.scheme == SplitScheme::f16x3;
  const int parts = model.scheme == SplitScheme::bf16x6 ? 3 : 2;
  // Each operand split once, as the kernel would while staging; A's rows and B's columns scaled first for f16.
  std::vector<float> row_scale(m, 1.0f), col_scale(n, 1.0f);
  if (f16 && model.scale_rows) {
    for (uint32_t i = 0; i < m; ++i) row_scale[i] = unit_scale(&a[size_t(i) * k], k, 1);
    for (uint32_t j = 0; j < n; ++j) col_scale[j] = unit_scale(&b[j], k, n);
  }
  auto split = [&](float x) { return f16 ? f16_parts(x) : bf16_parts(x, parts); };
  std::vector<std::vector<float>> ap(size_t(m) * k), bp(size_t(k) * n);
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t t = 0; t < k; ++t) ap[size_t(i) * k + t] = split(a[size_t(i) * k + t] * row_scale[i]);
  for (uint32_t t = 0; t < k; ++t)
    for (uint32_t j = 0; j < n; ++j) bp[size_t(t) * n + j] = split(b[size_t(t) * n + j] * col_scale[j]);

  const std::vector<Term> terms = terms_of(model.scheme);
  const uint32_t block = model.block_k ? model.block_k : k;
  std::vector<float> c(size_t(m) * n);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      float high = 0, low = 0;  // the f32 accumulators of the high products and of the corrections
      for (uint32_t k0 = 0; k0 < k; k0 += block) {
        float step = 0, step_low = 0;  // zeroed fragments for this step's products
        for (uint32_t t = k0; t < std::min(k, k0 + block); ++t) {
          const std::vector<float>& x = ap[size_t(i) * k + t];
          const std::vector<float>& y = bp[size_t(t) * n + j];
          for (const Term& term : terms) {
            const float product = x[term.a_part] * y[term.b_part];  // exact: 16-bit parts
            if (term.high)
              step = unit_add(step, product, model.rounding);
            else if (model.block_corrections)
              step_low = unit_add(step_low, product, model.rounding);
            else
              low = unit_add(low, product, model.rounding);
          }
        }
        if (model.one_accumulator) {
          high += step_low;  // the smaller sum first
          high += step;
        } else {
          high += step;  // on the FMA units: rounded to nearest
          low += step_low;
        }
      }
      // Small terms first; the f16 corrections carry the residual's 2^11.
      const float sum = high + (f16 ? low / 2048.0f : low);
      c[size_t(i) * n + j] = sum / (row_scale[i] * col_scale[j]);
    }
  }
  return c;
}

std::vector<float> native_gemm(std::span<const float> a, std::span<const float> b, uint32_t m, uint32_t n, uint32_t k) {
  std::vector<float> c(size_t(m) * n);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      float sum = 0;
      for (uint32_t t = 0; t < k; ++t) sum = std::fma(a[size_t(i) * k + t], b[size_t(t) * n + j], sum);
      c[size_t(i) * n + j] = sum;
    }
  }
  return c;
}

SplitErrors split_errors(std::span<const float> c, std::span<const float> a, std::span<const float> b, uint32_t m,
                         uint32_t n, uint32_t k) {
  SplitErrors e;
  double largest = 0, worst = 0;
  std::vector<double> refs(size_t(m) * n), diffs(size_t(m) * n);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      double ref = 0, magnitude = 0;
      for (uint32_t t = 0; t < k; ++t) {
        const double p = double(a[size_t(i) * k + t]) * double(b[size_t(t) * n + j]);
        ref += p;
        magnitude += std::fabs(p);
      }
      double diff = std::fabs(double(c[size_t(i) * n + j]) - ref);
      if (!std::isfinite(diff)) diff = INFINITY;  // an overflow or a NaN is the largest error, never none
      largest = std::max(largest, std::fabs(ref));
      refs[size_t(i) * n + j] = ref;
      diffs[size_t(i) * n + j] = diff;
      worst = std::max(worst, diff);
      if (magnitude > 0) e.elementwise = std::max(e.elementwise, diff / magnitude);
    }
  }
  e.normwise = largest > 0 ? worst / largest : worst;
  for (size_t x = 0; x < refs.size(); ++x) {
    if (std::fabs(refs[x]) > 1e-3 * largest) e.relative = std::max(e.relative, diffs[x] / std::fabs(refs[x]));
  }
  return e;
}

}  // namespace gemmtune
