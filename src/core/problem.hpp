// The GEMM problem: shape, input type and scalars; shape and dtype parsing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/block_format.hpp"
#include "core/dispatch_rules.hpp"
#include "core/operation.hpp"

namespace gemmtune {

/// Input element type. For the float types products and sums are f32 and C is f32. The 8-bit integer types
/// (i8: both inputs signed, u8: both unsigned, u8i8: A unsigned, B signed) subtract the zero points, multiply
/// and add in int32 arithmetic that wraps on overflow, and C is int32: exact, whatever the summation order.
/// The quantized types pair activations A in f16 or f32 with weights B in one of ggml's block formats
/// (core/block_format.hpp), stored N x K (layouts nt and tt), K a multiple of 32; products and sums are f32.
enum class DType { f32, f16, bf16, i8, u8, u8i8, f16_q8_0, f16_q4_0, f32_q8_0, f32_q4_0 };
inline constexpr DType kAllDTypes[] = {DType::f32,  DType::f16,      DType::bf16,     DType::i8,       DType::u8,
                                       DType::u8i8, DType::f16_q8_0, DType::f16_q4_0, DType::f32_q8_0, DType::f32_q4_0};

/// i8, u8 or u8i8.
bool is_integer(DType dtype);
/// Whether A's (B's) 8-bit values are signed: true for i8, and for B of u8i8.
bool a_signed(DType dtype);
bool b_signed(DType dtype);

/// The dtype whose kernels are this one's built from the same source with the element type changed (f16 and bf16:
/// bf16's SPIR-V is f16's retyped; i8 and u8: the signedness a define), so that a config's speed on a shape carries
/// over between them (the tuner's seeds); nullopt for the others.
std::optional<DType> twin_dtype(DType dtype);

/// B's block format for the quantized types, or nullopt.
std::optional<BlockFormat> b_block_format(DType dtype);
bool is_quantized(DType dtype);
/// The type A is stored in: the dtype itself, or a quantized type's activations (f16 or f32).
DType a_dtype(DType dtype);

/// The name users write and tables record: "f32", ..., "f16:q4_0" (A f16, B q4_0).
std::string_view dtype_name(DType dtype);
/// The name inside config and module names, with no '_' or ':': the dtype's name, or "f16q4" for f16:q4_0.
std::string_view dtype_token(DType dtype);
/// Parses one dtype name (or token); throws a usage Error naming `what`.
DType parse_dtype(std::string_view text, const std::string& what = "--dtype");
/// Parses a comma-separated dtype list, removing duplicates and keeping order.
std::vector<DType> parse_dtype_list(std::string_view text, const std::string& what = "--dtype");
/// A duration: a non-negative decimal number of seconds with an optional unit, "90", "60s", "2m", "1.5h".
/// Anything else is a usage Error naming `option`.
double parse_seconds(const std::string& text, const std::string& option);
/// Bytes per element of the input type (of A, for the quantized types: B's blocks are operand_bytes').
unsigned dtype_bytes(DType dtype);
/// Bytes of `elements` consecutive elements of A or B (`is_b`) as stored, padded to whole 32-bit words: for a
/// quantized type's B, `elements` (a multiple of 32) as blocks.
uint64_t operand_bytes(DType dtype, bool is_b, uint64_t elements);
/// The verification bound on max|gpu-ref|/max|ref| for this input type.
double dtype_error_bound(DType dtype);
/// A kernel's numerics when it computes in the input type's own arithmetic (KernelFamily::numerics).
inline constexpr std::string_view kNativeNumerics = "native";

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
  /// Zero points of the 8-bit integer types: C = sum over k of (A - zero_a) * (B - zero_b). 0 for float types.
  int32_t zero_a = 0, zero_b = 0;

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

/// The problem as the kernels' dispatch rules take it (src/core/dispatch_rules.hpp), resolved.
rules::Operation operation_of(const GemmProblem& problem);
rules::Operation operation_of(const GemmProblem& problem, const ResolvedGemm& layout);

/// Refuses what an integer problem cannot have: alpha other than 1, beta, bias, an activation (C is the exact
/// int32 sum), zero points outside the input type's range, zero points on float types. A usage Error naming
/// the option.
void check_integer_options(const GemmProblem& problem);

}  // namespace gemmtune
