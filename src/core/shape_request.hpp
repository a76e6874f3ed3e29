// Shapes the way people have them: ranges in --shape, shapes files (--shapes-file) and built-in suites (--suite).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/operation.hpp"
#include "core/problem.hpp"

namespace gemmtune {

/// One requested shape. A shapes-file line may name it and fix its dtype and layout; otherwise --dtype and
/// --layout apply.
struct ShapeRequest {
  Shape shape;
  std::string name;
  std::optional<DType> dtype;
  std::optional<Layout> layout;
  bool cold = false;  ///< the line's `cold` marker: memory-bound, also worth timing with --cold
  bool operator==(const ShapeRequest&) const = default;
};

/// Most values a range may expand to, and most shapes one --shape item may expand to.
inline constexpr size_t kMaxRangeValues = 1024;
inline constexpr size_t kMaxExpandedShapes = 10000;

/// One dimension: "a", "a:b:step" (a, a+step, ... up to b) or "a:b:*f" (a, a*f, a*f*f, ... up to b, f >= 2).
/// `dimension` ("M", "N", "K", "batch") is named in errors, which are usage errors naming `what` and `whole` (the
/// whole shape the dimension is part of; empty: `text`).
std::vector<uint64_t> parse_dimension_values(std::string_view text, const std::string& what,
                                             const std::string& dimension, const std::string& whole = "");

/// A --shape item whose dimensions may be ranges, expanded as a Cartesian product (M slowest, batch fastest).
/// Without ':' it is exactly parse_shape.
std::vector<Shape> expand_shape_pattern(std::string_view text, const std::string& what = "--shape");

/// A comma-separated --shape value: each item expanded, duplicates removed, order kept.
std::vector<ShapeRequest> parse_shape_requests(std::string_view text, const std::string& what = "--shape");

/// A shapes file: one problem per line, `[name] MxNxK[xB] [dtype] [layout] [cold]` in that order, `#` comments
/// and blank lines ignored, duplicate lines dropped. A name starts with a letter; the shape may use ranges.
/// Errors are usage errors "SOURCE:LINE: ..." naming the token and the reason.
std::vector<ShapeRequest> parse_shapes_file(const std::string& text, const std::string& source);

/// Appends `more` to `list`, leaving out a shape, dtype and layout already there (whatever its name).
void append_unique(std::vector<ShapeRequest>& list, const std::vector<ShapeRequest>& more);

}  // namespace gemmtune
