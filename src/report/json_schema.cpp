#include "report/json_schema.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

namespace gemmtune {

namespace {

using json = nlohmann::json;

const std::set<std::string>& known_keywords() {
  static const std::set<std::string> keywords = {"$schema",    "$id",      "$defs",
                                                 "$ref",       "title",    "description",
                                                 "type",       "enum",     "const",
                                                 "properties", "required", "additionalProperties",
                                                 "items",      "minimum",  "exclusiveMinimum",
                                                 "maximum",    "pattern",  "oneOf",
                                                 "anyOf"};
  return keywords;
}

bool has_type(const json& value, const std::string& type) {
  if (type == "null") return value.is_null();
  if (type == "boolean") return value.is_boolean();
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "string") return value.is_string();
  if (type == "number") return value.is_number();
  // JSON Schema counts 1.0 as an integer: any number with no fractional part.
  if (type == "integer")
    return value.is_number_integer() || (value.is_number_float() && std::isfinite(value.get<double>()) &&
                                         value.get<double>() == std::floor(value.get<double>()));
  return false;
}

std::string shown(const json& value) {
  std::string text = value.dump();
  return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

std::string member_path(const std::string& path, const std::string& key) {
  return path == "top level" ? key : path + "." + key;
}

}  // namespace

JsonSchema::JsonSchema(json schema) : schema_(std::move(schema)) { check_keywords(schema_, "#"); }

void JsonSchema::check_keywords(const json& node, const std::string& where) {
  if (node.is_boolean()) return;
  if (!node.is_object()) throw std::invalid_argument(where + ": a schema must be an object or a boolean");
  for (const auto& [key, value] : node.items()) {
    const std::string at = where + "/" + key;
    if (!known_keywords().count(key)) throw std::invalid_argument(at + ": keyword outside the supported subset");
    if (key == "$defs" || key == "properties") {
      if (!value.is_object()) throw std::invalid_argument(at + ": expected an object");
      for (const auto& [name, sub] : value.items()) check_keywords(sub, at + "/" + name);
    } else if (key == "items" || key == "additionalProperties") {
      check_keywords(value, at);
    } else if (key == "oneOf" || key == "anyOf") {
      if (!value.is_array() || value.empty()) throw std::invalid_argument(at + ": expected a non-empty array");
      for (size_t i = 0; i < value.size(); ++i) check_keywords(value[i], at + "/" + std::to_string(i));
    } else if (key == "pattern") {
      if (!value.is_string()) throw std::invalid_argument(at + ": expected a string");
      try {
        patterns_.emplace(value.get<std::string>(), std::regex(value.get<std::string>(), std::regex::ECMAScript));
      } catch (const std::regex_error& e) {
        throw std::invalid_argument(at + ": not a regular expression: " + e.what());
      }
    } else if (key == "minimum" || key == "exclusiveMinimum" || key == "maximum") {
      if (!value.is_number()) throw std::invalid_argument(at + ": expected a number");
    } else if (key == "required") {
      if (!value.is_array() || !std::all_of(value.begin(), value.end(), [](const json& v) { return v.is_string(); }))
        throw std::invalid_argument(at + ": expected an array of strings");
    } else if (key == "enum") {
      if (!value.is_array()) throw std::invalid_argument(at + ": expected an array");
    } else if (key == "type") {
      const json types = value.is_array() ? value : json::array({value});
      for (const json& t : types) {
        static const std::set<std::string> names = {"null",   "boolean", "object", "array",
                                                    "string", "number",  "integer"};
        if (!t.is_string() || !names.count(t.get<std::string>()))
          throw std::invalid_argument(at + ": unknown type " + t.dump());
      }
    } else if (key == "$ref") {
      if (!value.is_string()) throw std::invalid_argument(at + ": expected a string");
      resolve(value.get<std::string>());
    }
  }
}

const json& JsonSchema::resolve(const std::string& ref) const {
  const std::string prefix = "#/$defs/";
  if (ref.rfind(prefix, 0) != 0) throw std::invalid_argument("$ref " + ref + ": only #/$defs/NAME is supported");
  const std::string name = ref.substr(prefix.size());
  if (!schema_.contains("$defs") || !schema_["$defs"].contains(name))
    throw std::invalid_argument("$ref " + ref + ": no such definition");
  return schema_["$defs"][name];
}

std::optional<std::string> JsonSchema::first_error(const json& document) const {
  return validate(schema_, document, "top level");
}

std::optional<std::string> JsonSchema::validate(const json& node, const json& value, const std::string& path) const {
  if (node.is_boolean()) {
    if (node.get<bool>()) return std::nullopt;
    return path + ": " + shown(value) + ": not allowed here";
  }
  if (node.contains("$ref")) {
    if (auto e = validate(resolve(node["$ref"].get<std::string>()), value, path)) return e;
  }
  if (auto e = validate_value(node, value, path)) return e;
  if (value.is_object()) {
    if (auto e = validate_members(node, value, path)) return e;
  }
  if (value.is_array() && node.contains("items")) {
    for (size_t i = 0; i < value.size(); ++i) {
      if (auto e = validate(node["items"], value[i], path + "[" + std::to_string(i) + "]")) return e;
    }
  }
  return validate_alternatives(node, value, path);
}

std::optional<std::string> JsonSchema::validate_value(const json& node, const json& value,
                                                      const std::string& path) const {
  if (node.contains("type")) {
    const json types = node["type"].is_array() ? node["type"] : json::array({node["type"]});
    const bool any =
        std::any_of(types.begin(), types.end(), [&](const json& t) { return has_type(value, t.get<std::string>()); });
    if (!any) {
      std::string expected;
      for (const json& t : types) expected += (expected.empty() ? "" : " or ") + t.get<std::string>();
      return path + ": " + shown(value) + ": expected " + expected;
    }
  }
  if (node.contains("const") && value != node["const"])
    return path + ": " + shown(value) + ": expected " + node["const"].dump();
  if (node.contains("enum")) {
    const json& options = node["enum"];
    if (std::find(options.begin(), options.end(), value) == options.end()) {
      std::string listed;
      for (const json& o : options) listed += (listed.empty() ? "" : ", ") + o.dump();
      return path + ": " + shown(value) + ": not one of " + listed;
    }
  }
  if (value.is_number()) {
    const double v = value.get<double>();
    if (node.contains("minimum") && v < node["minimum"].get<double>())
      return path + ": " + shown(value) + ": below the minimum " + node["minimum"].dump();
    if (node.contains("exclusiveMinimum") && v <= node["exclusiveMinimum"].get<double>())
      return path + ": " + shown(value) + ": must be greater than " + node["exclusiveMinimum"].dump();
    if (node.contains("maximum") && v > node["maximum"].get<double>())
      return path + ": " + shown(value) + ": above the maximum " + node["maximum"].dump();
  }
  if (value.is_string() && node.contains("pattern")) {
    const std::string& pattern = node["pattern"].get_ref<const std::string&>();
    if (!std::regex_search(value.get_ref<const std::string&>(), patterns_.at(pattern)))
      return path + ": " + shown(value) + ": does not match " + pattern;
  }
  return std::nullopt;
}

std::optional<std::string> JsonSchema::validate_members(const json& node, const json& value,
                                                        const std::string& path) const {
  if (node.contains("required")) {
    for (const json& key : node["required"]) {
      if (!value.contains(key.get<std::string>()))
        return member_path(path, key.get<std::string>()) + ": missing (required)";
    }
  }
  const json* properties = node.contains("properties") ? &node["properties"] : nullptr;
  for (const auto& [key, member] : value.items()) {
    const std::string at = member_path(path, key);
    if (properties && properties->contains(key)) {
      if (auto e = validate((*properties)[key], member, at)) return e;
    } else if (node.contains("additionalProperties")) {
      const json& extra = node["additionalProperties"];
      if (extra.is_boolean() && !extra.get<bool>()) return at + ": " + shown(member) + ": not an allowed key";
      if (auto e = validate(extra, member, at)) return e;
    }
  }
  return std::nullopt;
}

std::optional<std::string> JsonSchema::validate_alternatives(const json& node, const json& value,
                                                             const std::string& path) const {
  for (const char* combiner : {"oneOf", "anyOf"}) {
    if (!node.contains(combiner)) continue;
    size_t matched = 0;
    // The failure to report: an alternative that declares the value's type first, then one that declares no type,
    // then the rest (a type mismatch says least).
    std::optional<std::string> closest;
    int closest_score = -1;
    for (const json& alternative : node[combiner]) {
      std::optional<std::string> e = validate(alternative, value, path);
      if (!e) {
        ++matched;
        continue;
      }
      const json* declared = &alternative;  // the alternative's own type, through a $ref
      while (declared->is_object() && !declared->contains("type") && declared->contains("$ref"))
        declared = &resolve((*declared)["$ref"].get<std::string>());
      int score = 1;
      if (declared->is_object() && declared->contains("type") && (*declared)["type"].is_string())
        score = has_type(value, (*declared)["type"].get<std::string>()) ? 2 : 0;
      if (score > closest_score) {
        closest = e;
        closest_score = score;
      }
    }
    if (std::string(combiner) == "oneOf" && matched > 1)
      return path + ": " + shown(value) + ": matches " + std::to_string(matched) + " alternatives of oneOf, not one";
    if (matched == 0) return closest;
  }
  return std::nullopt;
}

}  // namespace gemmtune
