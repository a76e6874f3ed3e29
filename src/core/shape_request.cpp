#include "core/shape_request.hpp"

#include <algorithm>
#include <set>
#include <tuple>

#include "core/error.hpp"

namespace gemmtune {

namespace {

const char* const kDimensionNames[] = {"M", "N", "K", "batch"};

/// A whole decimal number in [1, kMaxDimension] (ASCII digits only, as in shapes).
uint64_t parse_count(std::string_view digits, const std::string& what, const std::string& value,
                     const std::string& role) {
  if (digits.empty()) throw usage_error(what, value, role + " is missing");
  uint64_t v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9')
      throw usage_error(what, value, role + " '" + std::string(digits) + "' is not a decimal number");
    if (v <= kMaxDimension) v = v * 10 + uint64_t(c - '0');
  }
  if (v == 0) throw usage_error(what, value, role + " is 0: it must be at least 1");
  if (v > kMaxDimension) throw usage_error(what, value, role + " exceeds " + std::to_string(kMaxDimension));
  return v;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t at = text.find(separator, start);
    parts.push_back(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

}  // namespace

std::vector<uint64_t> parse_dimension_values(std::string_view text, const std::string& what,
                                             const std::string& dimension, const std::string& whole) {
  const std::string value = whole.empty() ? std::string(text) : whole;
  const std::vector<std::string_view> parts = split(text, ':');
  if (parts.size() == 1) return {parse_count(parts[0], what, value, dimension)};
  if (parts.size() != 3) throw usage_error(what, value, dimension + ": a range is a:b:step or a:b:*factor");
  const uint64_t first = parse_count(parts[0], what, value, dimension + " range start");
  const uint64_t last = parse_count(parts[1], what, value, dimension + " range end");
  if (last < first)
    throw usage_error(what, value, dimension + " range ends (" + std::to_string(last) + ") before it starts");
  const bool geometric = !parts[2].empty() && parts[2][0] == '*';
  const uint64_t step = parse_count(geometric ? parts[2].substr(1) : parts[2], what, value,
                                    dimension + (geometric ? " range factor" : " range step"));
  if (geometric && step < 2) throw usage_error(what, value, dimension + " range factor must be at least 2");
  std::vector<uint64_t> values;
  for (uint64_t v = first; v <= last; v = geometric ? v * step : v + step) {  // no overflow: all below 2^31 * 2^31
    if (values.size() == kMaxRangeValues) {
      throw usage_error(what, value, dimension + " range has more than " + std::to_string(kMaxRangeValues) + " values");
    }
    values.push_back(v);
  }
  return values;
}

std::vector<Shape> expand_shape_pattern(std::string_view text, const std::string& what) {
  if (text.find(':') == std::string_view::npos) return {parse_shape(text, what)};
  const std::string value(text);
  const std::vector<std::string_view> parts = split(text, 'x');
  if (parts.size() < 3 || parts.size() > 4)
    throw usage_error(what, value, "expected MxNxK or MxNxKxB, each a number or a range");
  std::vector<std::vector<uint64_t>> dims;
  size_t total = 1;
  for (size_t i = 0; i < parts.size(); ++i) {
    dims.push_back(parse_dimension_values(parts[i], what, kDimensionNames[i], value));
    total *= dims.back().size();  // at most 1024^4: fits in 64 bits
    if (total > kMaxExpandedShapes) {
      throw usage_error(what, value, "expands to more than " + std::to_string(kMaxExpandedShapes) + " shapes");
    }
  }
  if (dims.size() == 3) dims.push_back({1});
  std::vector<Shape> shapes;
  for (uint64_t m : dims[0]) {
    for (uint64_t n : dims[1]) {
      for (uint64_t k : dims[2]) {
        for (uint64_t b : dims[3]) shapes.push_back(Shape{m, n, k, b});
      }
    }
  }
  return shapes;
}

void append_unique(std::vector<ShapeRequest>& list, const std::vector<ShapeRequest>& more) {
  // The same problem under another name or cold marker is still the same problem: the first line wins. One set of
  // keys a call keeps a file of 200 000 lines linear (a search of the list per line was quadratic).
  using Key = std::tuple<uint64_t, uint64_t, uint64_t, uint64_t, int, std::string>;
  auto key = [](const ShapeRequest& r) {
    return Key{
        r.shape.m, r.shape.n, r.shape.k, r.shape.batch, r.dtype ? int(*r.dtype) : -1, r.layout ? r.layout->name() : ""};
  };
  std::set<Key> seen;
  for (const ShapeRequest& r : list) seen.insert(key(r));
  for (const ShapeRequest& r : more) {
    if (seen.insert(key(r)).second) list.push_back(r);
  }
}

std::vector<ShapeRequest> parse_shape_requests(std::string_view text, const std::string& what) {
  std::vector<ShapeRequest> out;
  size_t position = 0;
  for (std::string_view item : split(text, ',')) {
    ++position;
    // An empty item is named by its place in the whole value ("5x5x5,,6x6x6": the second).
    if (item.empty() && text.find(',') != std::string_view::npos)
      throw usage_error(what, std::string(text),
                        "item " + std::to_string(position) + " is empty (expected MxNxK or MxNxKxB)");
    std::vector<ShapeRequest> expanded;
    for (const Shape& s : expand_shape_pattern(item, what)) expanded.push_back(ShapeRequest{s});
    append_unique(out, expanded);
  }
  return out;
}

std::vector<ShapeRequest> parse_shapes_file(const std::string& text, const std::string& source) {
  std::vector<ShapeRequest> all;
  size_t line_no = 0;
  // A UTF-8 byte-order mark, as editors on some systems write it, is no part of the first line (the JSON readers
  // accept it too).
  std::string_view body = text;
  if (body.substr(0, 3) == "\xEF\xBB\xBF") body.remove_prefix(3);
  for (std::string_view line : split(body, '\n')) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (const size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    std::vector<std::string_view> tokens = words(line);
    if (tokens.empty()) continue;
    const std::string where = source + ":" + std::to_string(line_no);
    size_t t = 0;
    std::string name;
    const unsigned char first = static_cast<unsigned char>(tokens[0][0]);
    if ((first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z')) name = std::string(tokens[t++]);
    if (t == tokens.size())
      throw usage_error(where, std::string(line), "expected [name] MxNxK[xB] [dtype] [layout] [cold]");
    const std::vector<Shape> shapes = expand_shape_pattern(tokens[t++], where);
    ShapeRequest proto;
    proto.name = name;
    for (; t < tokens.size(); ++t) {
      const std::string token(tokens[t]);
      if (token == "cold" && !proto.cold) {
        proto.cold = true;
      } else if (std::any_of(std::begin(kAllDTypes), std::end(kAllDTypes),
                             [&](DType d) { return token == dtype_name(d); }) &&
                 !proto.dtype && !proto.layout && !proto.cold) {
        proto.dtype = parse_dtype(token, where);
      } else if (token.size() == 2 && (token[0] == 'n' || token[0] == 't') && (token[1] == 'n' || token[1] == 't') &&
                 !proto.layout && !proto.cold) {
        proto.layout = parse_layout(token, where);
      } else {
        throw usage_error(where, token,
                          "unexpected here (a line is [name] MxNxK[xB] [dtype] [layout] [cold], in that order)");
      }
    }
    for (const Shape& s : shapes) {
      ShapeRequest r = proto;
      r.shape = s;
      all.push_back(r);
    }
  }
  std::vector<ShapeRequest> out;
  append_unique(out, all);
  if (out.empty()) throw usage_error(source, "", "no shapes in the file (only comments and blank lines)");
  return out;
}

}  // namespace gemmtune
