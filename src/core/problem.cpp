#include "core/problem.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "core/error.hpp"

namespace gemmtune {

namespace {
/// Every input type's facts in one place: its name, its token in config names, A's type (the activations of a
/// quantized type), B's block format, and the verification bound.
struct DTypeFacts {
  DType dtype;
  std::string_view name, token;
  DType a;
  std::optional<BlockFormat> blocks;
  double bound;
};
constexpr DTypeFacts kDTypeFacts[] = {
    {DType::f32, "f32", "f32", DType::f32, std::nullopt, 1e-5},
    {DType::f16, "f16", "f16", DType::f16, std::nullopt, 2e-3},
    {DType::bf16, "bf16", "bf16", DType::bf16, std::nullopt, 8e-3},
    {DType::i8, "i8", "i8", DType::i8, std::nullopt, 0.0},  // 8-bit integers: exact
    {DType::u8, "u8", "u8", DType::u8, std::nullopt, 0.0},
    {DType::u8i8, "u8i8", "u8i8", DType::u8i8, std::nullopt, 0.0},
    // Weights in blocks: f16's input bound, for both activation types.
    {DType::f16_q8_0, "f16:q8_0", "f16q8", DType::f16, BlockFormat::q8_0, 2e-3},
    {DType::f16_q4_0, "f16:q4_0", "f16q4", DType::f16, BlockFormat::q4_0, 2e-3},
    {DType::f32_q8_0, "f32:q8_0", "f32q8", DType::f32, BlockFormat::q8_0, 2e-3},
    {DType::f32_q4_0, "f32:q4_0", "f32q4", DType::f32, BlockFormat::q4_0, 2e-3},
};
const DTypeFacts& facts(DType dtype) {
  for (const DTypeFacts& f : kDTypeFacts)
    if (f.dtype == dtype) return f;
  return kDTypeFacts[0];  // unreachable: every enumerator is listed (a unit test walks kAllDTypes)
}
}  // namespace

std::string_view dtype_name(DType dtype) { return facts(dtype).name; }
std::string_view dtype_token(DType dtype) { return facts(dtype).token; }

std::optional<DType> twin_dtype(DType dtype) {
  switch (dtype) {
    case DType::f16: return DType::bf16;
    case DType::bf16: return DType::f16;
    case DType::i8: return DType::u8;
    case DType::u8: return DType::i8;
    default: return std::nullopt;
  }
}
std::optional<BlockFormat> b_block_format(DType dtype) { return facts(dtype).blocks; }
bool is_quantized(DType dtype) { return b_block_format(dtype).has_value(); }
DType a_dtype(DType dtype) { return facts(dtype).a; }

bool is_integer(DType dtype) { return dtype == DType::i8 || dtype == DType::u8 || dtype == DType::u8i8; }
bool a_signed(DType dtype) { return dtype == DType::i8; }
bool b_signed(DType dtype) { return dtype == DType::i8 || dtype == DType::u8i8; }

void check_integer_options(const GemmProblem& p) {
  if (!is_integer(p.dtype)) {
    if (p.zero_a != 0)
      throw usage_error("--zero-a", std::to_string(p.zero_a), "zero points apply to i8, u8 and u8i8 inputs only");
    if (p.zero_b != 0)
      throw usage_error("--zero-b", std::to_string(p.zero_b), "zero points apply to i8, u8 and u8i8 inputs only");
    return;
  }
  const std::string why =
      std::string("integer inputs (") + std::string(dtype_name(p.dtype)) + ") give the exact int32 sum";
  if (p.alpha != 1.0f) throw usage_error("--alpha", std::to_string(p.alpha), why + ": alpha must be 1");
  if (p.beta != 0.0f) throw usage_error("--beta", std::to_string(p.beta), why + ": beta must be 0");
  if (p.epilogue.bias) throw usage_error("--bias", "on", why + ": no bias");
  if (p.epilogue.activation != Activation::none)
    throw usage_error("--activation", std::string(activation_name(p.epilogue.activation)), why + ": no activation");
  auto in_range = [](int32_t z, bool is_signed) { return is_signed ? (z >= -128 && z <= 127) : (z >= 0 && z <= 255); };
  if (!in_range(p.zero_a, a_signed(p.dtype)))
    throw usage_error("--zero-a", std::to_string(p.zero_a),
                      std::string("outside A's range (") + (a_signed(p.dtype) ? "-128..127)" : "0..255)"));
  if (!in_range(p.zero_b, b_signed(p.dtype)))
    throw usage_error("--zero-b", std::to_string(p.zero_b),
                      std::string("outside B's range (") + (b_signed(p.dtype) ? "-128..127)" : "0..255)"));
}

DType parse_dtype(std::string_view text, const std::string& what) {
  for (DType d : kAllDTypes) {
    if (text == dtype_name(d) || text == dtype_token(d)) return d;
  }
  throw usage_error(what, std::string(text),
                    "unknown dtype (expected f32, f16, bf16, i8, u8, u8i8, or activations:weights f16:q8_0, f16:q4_0, "
                    "f32:q8_0, f32:q4_0)");
}

namespace {
std::vector<std::string_view> split_commas(std::string_view text) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    parts.push_back(text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return parts;
}
}  // namespace

std::vector<DType> parse_dtype_list(std::string_view text, const std::string& what) {
  std::vector<DType> out;
  for (std::string_view part : split_commas(text)) {
    DType d = parse_dtype(part, what);
    if (std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
  }
  return out;
}

unsigned dtype_bytes(DType dtype) {
  const DType a = a_dtype(dtype);
  return a == DType::f32 ? 4 : is_integer(a) ? 1 : 2;
}

uint64_t operand_bytes(DType dtype, bool is_b, uint64_t elements) {
  if (is_b && is_quantized(dtype)) return (block_row_bytes(*b_block_format(dtype), elements) + 3) / 4 * 4;
  return (elements * dtype_bytes(dtype) + 3) / 4 * 4;
}

double dtype_error_bound(DType dtype) { return facts(dtype).bound; }

std::string Shape::to_string() const {
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on the chained operator+ form.
  std::string s = std::to_string(m);
  for (uint64_t d : {n, k}) s.append("x").append(std::to_string(d));
  if (batch != 1) s.append("x").append(std::to_string(batch));
  return s;
}

Shape parse_shape(std::string_view text, const std::string& what) {
  const std::string value(text);
  auto fail = [&](const std::string& why) { return usage_error(what, value, why); };
  if (text.empty()) throw fail("empty shape (expected MxNxK or MxNxKxB)");

  std::vector<uint64_t> dims;
  size_t pos = 0;
  static const char* kNames[] = {"M", "N", "K", "batch"};
  while (true) {
    if (dims.size() == 4) throw fail("too many dimensions (expected MxNxK or MxNxKxB)");
    const char* name = kNames[dims.size()];
    size_t start = pos;
    uint64_t v = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (v > kMaxDimension) {  // keep accumulating safely: any value past the limit is refused below
        ++pos;
        continue;
      }
      v = v * 10 + uint64_t(text[pos] - '0');
      ++pos;
    }
    if (pos == start) {
      if (pos == text.size()) throw fail(std::string("missing ") + name + " (expected MxNxK or MxNxKxB)");
      unsigned char c = static_cast<unsigned char>(text[pos]);
      std::string shown = (c >= 0x20 && c < 0x7f) ? std::string(1, char(c)) : "byte " + std::to_string(c);
      throw fail(std::string("expected a decimal digit for ") + name + " at position " + std::to_string(pos + 1) +
                 ", found '" + shown + "'");
    }
    if (v == 0) throw fail(std::string(name) + " is 0: every dimension must be at least 1");
    if (v > kMaxDimension) {
      throw fail(std::string(name) + " exceeds the largest supported dimension " + std::to_string(kMaxDimension));
    }
    dims.push_back(v);
    if (pos == text.size()) break;
    if (text[pos] != 'x') {
      unsigned char c = static_cast<unsigned char>(text[pos]);
      std::string shown = (c >= 0x20 && c < 0x7f) ? std::string(1, char(c)) : "byte " + std::to_string(c);
      throw fail("expected 'x' after " + std::string(name) + " at position " + std::to_string(pos + 1) + ", found '" +
                 shown + "'");
    }
    ++pos;
  }
  if (dims.size() < 3) throw fail("too few dimensions (expected MxNxK or MxNxKxB)");
  Shape s{dims[0], dims[1], dims[2], dims.size() == 4 ? dims[3] : 1};
  return s;
}

std::vector<Shape> parse_shape_list(std::string_view text, const std::string& what) {
  std::vector<Shape> out;
  size_t position = 0;
  for (std::string_view part : split_commas(text)) {
    ++position;
    if (part.empty() && text.find(',') != std::string_view::npos)
      throw usage_error(what, std::string(text),
                        "item " + std::to_string(position) + " is empty (expected MxNxK or MxNxKxB)");
    Shape s = parse_shape(part, what);
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  return out;
}

namespace {
uint64_t mul_checked(uint64_t a, uint64_t b, const std::string& what) {
  uint64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    throw usage_error(what, std::to_string(a) + "*" + std::to_string(b), "size overflows 64 bits");
  return r;
}
uint64_t add_checked(uint64_t a, uint64_t b, const std::string& what) {
  uint64_t r;
  if (__builtin_add_overflow(a, b, &r))
    throw usage_error(what, std::to_string(a) + "+" + std::to_string(b), "size overflows 64 bits");
  return r;
}

ResolvedOperand resolve_operand(const OperandPlacement& p, char name, uint64_t rows, uint64_t cols, uint64_t batch,
                                const std::string& stored, bool may_share) {
  const std::string ld_flag = std::string("--ld") + name, stride_flag = std::string("--stride-") + name,
                    offset_flag = std::string("--offset-") + name;
  ResolvedOperand r;
  r.rows = rows;
  r.cols = cols;
  r.ld = p.ld.value_or(cols);
  if (r.ld < cols) {
    throw usage_error(ld_flag, std::to_string(r.ld),
                      "below the " + std::to_string(cols) + " columns of " + std::string(1, char(name - 32)) +
                          " as stored (" + stored + ")");
  }
  r.offset = p.offset;
  const uint64_t span = add_checked(mul_checked(rows - 1, r.ld, ld_flag), cols, ld_flag);  // one product
  r.stride = p.batch_stride.value_or(mul_checked(rows, r.ld, stride_flag));
  if (batch > 1 && !may_share && r.stride < span) {
    throw usage_error(stride_flag, std::to_string(r.stride),
                      "products of C would overlap (a product spans " + std::to_string(span) + " elements)");
  }
  // offset + (batch - 1) x stride + span, each overflow blamed on the option that set the term, as written.
  uint64_t products = 0, extent = 0;
  if (__builtin_mul_overflow(batch - 1, r.stride, &products)) {
    if (p.batch_stride)
      throw usage_error(stride_flag, std::to_string(r.stride),
                        "the " + std::to_string(batch - 1) + " products after the first pass 2^64 elements");
    throw usage_error("--shape", std::to_string(batch) + " products",
                      "the products of " + std::string(1, char(name - 32)) + " pass 2^64 elements");
  }
  if (__builtin_add_overflow(products, span, &extent) || __builtin_add_overflow(extent, r.offset, &r.extent)) {
    if (r.offset > 0)
      throw usage_error(offset_flag, std::to_string(r.offset), "the operand's last element passes 2^64 elements");
    throw usage_error(p.batch_stride ? stride_flag : std::string("--shape"),
                      p.batch_stride ? std::to_string(r.stride) : std::to_string(batch) + " products",
                      "the operand's last element passes 2^64 elements");
  }
  return r;
}
}  // namespace

namespace {
/// Quantized weights are whole blocks of 32 along k in rows of B as stored (N x K).
void check_quantized_options(const GemmProblem& p) {
  if (!is_quantized(p.dtype)) return;
  const std::string why = "B in " + std::string(block_format_name(*b_block_format(p.dtype))) + " blocks of 32 along k";
  if (!p.layout.trans_b) throw usage_error("--layout", p.layout.name(), why + " is stored N x K: layouts nt and tt");
  if (p.shape.k % kBlockElements != 0)
    throw usage_error("--shape", p.shape.to_string(), why + ": K must be a multiple of 32");
  if (p.b.ld && *p.b.ld % kBlockElements != 0)
    throw usage_error("--ldb", std::to_string(*p.b.ld), why + ": a multiple of 32 elements");
  if (p.b.offset % kBlockElements != 0)
    throw usage_error("--offset-b", std::to_string(p.b.offset), why + ": a multiple of 32 elements");
  if (p.b.batch_stride && *p.b.batch_stride % kBlockElements != 0)
    throw usage_error("--stride-b", std::to_string(*p.b.batch_stride), why + ": a multiple of 32 elements");
}
}  // namespace

ResolvedGemm resolve(const GemmProblem& p) {
  check_integer_options(p);
  check_quantized_options(p);
  const Shape& s = p.shape;
  ResolvedGemm r;
  const std::string l = "layout " + p.layout.name();
  r.a = p.layout.trans_a ? resolve_operand(p.a, 'a', s.k, s.m, s.batch, "K x M for " + l, true)
                         : resolve_operand(p.a, 'a', s.m, s.k, s.batch, "M x K for " + l, true);
  r.b = p.layout.trans_b ? resolve_operand(p.b, 'b', s.n, s.k, s.batch, "N x K for " + l, true)
                         : resolve_operand(p.b, 'b', s.k, s.n, s.batch, "K x N for " + l, true);
  r.c = resolve_operand(p.c, 'c', s.m, s.n, s.batch, "M x N", false);
  if (p.epilogue.bias) r.bias_extent = add_checked(p.epilogue.bias_offset, s.n, "--bias-offset");
  return r;
}

double parse_seconds(const std::string& text, const std::string& option) {
  size_t digits = 0, dots = 0;
  while (digits < text.size() && (std::isdigit(static_cast<unsigned char>(text[digits])) || text[digits] == '.')) {
    dots += text[digits] == '.';
    ++digits;
  }
  const std::string unit = text.substr(digits);
  const double scale = unit.empty() || unit == "s" ? 1.0 : unit == "m" ? 60.0 : unit == "h" ? 3600.0 : -1.0;
  if (digits == 0 || dots > 1 || text[0] == '.' || text[digits - 1] == '.' || scale < 0) {
    throw usage_error(option, text, "expected seconds, optionally with a unit: 90, 60s, 2m, 1.5h");
  }
  // strtod, not stod: a long digit string is HUGE_VAL here (refused below), not an out_of_range exception.
  const double value = std::strtod(text.substr(0, digits).c_str(), nullptr) * scale;
  if (!(value <= 1e9)) throw usage_error(option, text, "at most 1e9 seconds");
  return value;
}

}  // namespace gemmtune

namespace gemmtune {

rules::Operation operation_of(const GemmProblem& p, const ResolvedGemm& l) {
  rules::Operation op;
  op.m = p.shape.m, op.n = p.shape.n, op.k = p.shape.k, op.batch = p.shape.batch;
  op.trans_a = p.layout.trans_a, op.trans_b = p.layout.trans_b;
  op.lda = l.a.ld, op.ldb = l.b.ld, op.ldc = l.c.ld;
  op.off_a = l.a.offset, op.off_b = l.b.offset, op.off_c = l.c.offset;
  op.stride_a = l.a.stride, op.stride_b = l.b.stride, op.stride_c = l.c.stride;
  op.alpha = p.alpha, op.beta = p.beta;
  op.bias = p.epilogue.bias;
  op.bias_offset = l.bias_extent ? l.bias_extent - p.shape.n : 0;  // as resolved (the runner's guard band moves it)
  op.activation = uint32_t(p.epilogue.activation);
  op.deterministic = p.mode == Mode::deterministic;
  op.zero_a = p.zero_a, op.zero_b = p.zero_b;
  op.input_bytes = dtype_bytes(p.dtype);
  return op;
}

rules::Operation operation_of(const GemmProblem& p) { return operation_of(p, resolve(p)); }

}  // namespace gemmtune
