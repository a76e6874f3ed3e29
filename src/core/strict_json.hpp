// JSON for gemmtune's own files (tables, search spaces): nlohmann's parser, plus a refusal of duplicate keys
// (which it would resolve silently to the last value) and of nesting deeper than any gemmtune file has (its
// recursive parser would overflow the stack on 100000 open brackets: a crash found by the damaged-file corpus).
#pragma once

#include <nlohmann/json.hpp>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace gemmtune {

class JsonRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr int kMaxJsonDepth = 64;

/// Parses `text` as Json::parse does (parse_error on bad syntax; Json is nlohmann::json or ordered_json, which
/// keeps key order) and throws JsonRefused when an object repeats a key or brackets nest deeper than
/// kMaxJsonDepth.
template <class Json = nlohmann::json>
Json parse_json_without_duplicates(const std::string& text) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {  // before the recursive parser sees it
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') in_string = true;
    if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) throw JsonRefused("nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  std::vector<std::set<std::string>> open_objects;
  auto check = [&](int /*depth*/, typename Json::parse_event_t event, Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start:
        open_objects.emplace_back();
        break;
      case Json::parse_event_t::object_end:
        open_objects.pop_back();
        break;
      case Json::parse_event_t::key:
        if (!open_objects.back().insert(parsed.template get<std::string>()).second) {
          // Escaped: the key is the file's own text, and a control character in it must not break the line.
          throw JsonRefused("duplicate key '" + gemmtune::escaped(parsed.template get<std::string>()) + "'");
        }
        break;
      default:
        break;
    }
    return true;
  };
  try {
    return Json::parse(text, check);
  } catch (const typename Json::out_of_range& e) {
    // nlohmann reports a number too large for a double (1e999) as out_of_range 406 while parsing.
    throw JsonRefused(std::string("a number is out of range (") + e.what() + ")");
  }
}

}  // namespace gemmtune
