#include "core/problem.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace gemmtune {

std::string_view dtype_name(DType dtype) {
  switch (dtype) {
    case DType::f32: return "f32";
    case DType::f16: return "f16";
    case DType::bf16: return "bf16";
  }
  return "?";
}

DType parse_dtype(std::string_view text, const std::string& what) {
  for (DType d : {DType::f32, DType::f16, DType::bf16}) {
    if (text == dtype_name(d)) return d;
  }
  throw usage_error(what, std::string(text), "unknown dtype (expected f32, f16 or bf16)");
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

unsigned dtype_bytes(DType dtype) { return dtype == DType::f32 ? 4 : 2; }

double dtype_error_bound(DType dtype) {
  switch (dtype) {
    case DType::f32: return 1e-5;
    case DType::f16: return 2e-3;
    case DType::bf16: return 8e-3;
  }
  return 0.0;
}

std::string Shape::to_string() const {
  std::string s = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  if (batch != 1) s += "x" + std::to_string(batch);
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
      throw fail("expected 'x' after " + std::string(name) + " at position " + std::to_string(pos + 1) +
                 ", found '" + shown + "'");
    }
    ++pos;
  }
  if (dims.size() < 3) throw fail("too few dimensions (expected MxNxK or MxNxKxB)");
  Shape s{dims[0], dims[1], dims[2], dims.size() == 4 ? dims[3] : 1};
  return s;
}

std::vector<Shape> parse_shape_list(std::string_view text, const std::string& what) {
  std::vector<Shape> out;
  for (std::string_view part : split_commas(text)) {
    Shape s = parse_shape(part, what);
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  return out;
}

}  // namespace gemmtune
