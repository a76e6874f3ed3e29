// The full GEMM operation: C = alpha * op(A) * op(B) + beta * C for `batch` products, with leading dimensions,
// element offsets, batch strides and a fused epilogue (bias, activation); and its checked resolution into the
// exact buffer extents a kernel touches.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gemmtune {

/// op(A), op(B): 'n' as stored, 't' transposed. A stored M x K ('n') or K x M ('t'); B stored K x N or N x K.
struct Layout {
  bool trans_a = false, trans_b = false;
  std::string name() const;  ///< "nn", "nt", "tn", "tt"
  bool operator==(const Layout&) const = default;
};
Layout parse_layout(std::string_view text, const std::string& what = "--layout");
std::vector<Layout> parse_layout_list(std::string_view text, const std::string& what = "--layout");

enum class Activation { none, relu, gelu_erf, gelu_tanh };
std::string_view activation_name(Activation a);
Activation parse_activation(std::string_view text, const std::string& what = "--activation");

/// fast: any variant; deterministic: only variants whose summation order depends on nothing but shape and config.
enum class Mode { fast, deterministic };
std::string_view mode_name(Mode m);
Mode parse_mode(std::string_view text, const std::string& what = "--mode");

/// How one operand lies in its buffer; unset values mean packed.
struct OperandPlacement {
  std::optional<uint64_t> ld;            ///< elements between stored rows
  uint64_t offset = 0;                   ///< elements before the first product
  std::optional<uint64_t> batch_stride;  ///< elements between products; 0 shares one operand (A or B only)
  bool operator==(const OperandPlacement&) const = default;
};

struct Epilogue {
  bool bias = false;         ///< f32 bias: element j added to column j of every row of every product
  uint64_t bias_offset = 0;  ///< elements before bias[0]
  Activation activation = Activation::none;
  bool operator==(const Epilogue&) const = default;
  std::string name() const;  ///< "none", "bias", "relu", "bias+gelu-erf", ...
};

/// An operand resolved to numbers: every element (z, r, c) of the stored matrix is at
/// offset + z * stride + r * ld + c, and `extent` elements cover all of them.
struct ResolvedOperand {
  uint64_t rows = 0, cols = 0;  ///< as stored
  uint64_t ld = 0, offset = 0, stride = 0;
  uint64_t extent = 0;  ///< elements from the buffer start to one past the last element touched
  uint64_t index(uint64_t z, uint64_t r, uint64_t c) const { return offset + z * stride + r * ld + c; }
  /// Every stored row starts at a multiple of `elements`: ld, offset and batch stride are multiples of it.
  bool rows_aligned(uint64_t elements) const {
    return ld % elements == 0 && offset % elements == 0 && stride % elements == 0;
  }
};

}  // namespace gemmtune
