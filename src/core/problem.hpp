// The GEMM problem: shape, input type and scalars; shape and dtype parsing.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/operation.hpp"

namespace gemmtune {

/// Input element type. Products and sums are f32 and C is f32 for every input type.
enum class DType { f32, f16, bf16 };

std::string_view dtype_name(DType dtype);
/// Parses one dtype name; throws a usage Error naming `what`.
DType parse_dtype(std::string_view text, const std::string& what = "--dtype");
/// Parses a comma-separated dtype list, removing duplicates and keeping order.
std::vector<DType> parse_dtype_list(std::string_view text, const std::string& what = "--dtype");
/// A duration: a non-negative decimal number of seconds with an optional unit, "90", "60s", "2m", "1.5h".
/// Anything else is a usage Error naming `option`.
double parse_seconds(const std::string& text, const std::string& option);
/// Bytes per element of the input type.
unsigned dtype_bytes(DType dtype);
/// The verification bound on max|gpu-ref|/max|ref| for this input type.
double dtype_error_bound(DType dtype);

/// C (M x N) = A (M x K) * B (K x N), for `batch` independent products.
struct Shape {
  uint64_t m = 0, n = 0, k = 0, batch = 1;
  bool operator==(const Shape&) const = default;
  std::string to_string() const;  ///< "MxNxK" or "MxNxKxB"
};

/// Largest accepted dimension: 32-bit shader index arithmetic needs each below 2^31 (later checks compare
/// buffer sizes with the device's limits).
inline constexpr uint64_t kMaxDimension = (uint64_t{1} << 31) - 1;

/// Parses "MxNxK" or "MxNxKxB": ASCII decimal digits, lower-case 'x', each value in [1, 2^31-1].
/// Zero-sized dimensions are refused (exit 2). Throws a usage Error naming `what` and the reason.
Shape parse_shape(std::string_view text, const std::string& what = "--shape");
/// Parses a comma-separated list of shapes, removing duplicates and keeping order.
std::vector<Shape> parse_shape_list(std::string_view text, const std::string& what = "--shape");

struct GemmProblem {
  Shape shape;
  DType dtype = DType::f32;
  float alpha = 1.0f;
  float beta = 0.0f;
  Layout layout;
  OperandPlacement a, b, c;
  Epilogue epilogue;
  Mode mode = Mode::fast;

  double flops() const { return 2.0 * double(shape.m) * double(shape.n) * double(shape.k) * double(shape.batch); }
};

/// Where every operand lies, checked in 64-bit arithmetic.
struct ResolvedGemm {
  ResolvedOperand a, b, c;
  uint64_t bias_extent = 0;  ///< elements of the bias buffer touched (0 without bias)
};

/// Resolves leading dimensions, offsets and batch strides (packed where unset). A leading dimension below the
/// stored width, a C batch stride that makes products overlap, or an extent past 64 bits is a usage Error
/// naming the option (--lda, --stride-c, ...), the value and the reason.
ResolvedGemm resolve(const GemmProblem& problem);

}  // namespace gemmtune
