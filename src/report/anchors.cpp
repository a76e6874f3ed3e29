#include "report/anchors.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.hpp"
#include "core/files.hpp"
#include "core/problem.hpp"
#include "core/strict_json.hpp"

namespace gemmtune {

namespace {
std::string field_error(const char* key, const std::string& complaint) {
  return std::string("\"") + key + "\" " + complaint;
}

uint64_t positive_count(const nlohmann::json& line, const char* key) {
  const auto it = line.find(key);
  if (it == line.end() || !it->is_number_unsigned() || it->get<uint64_t>() == 0)
    throw std::invalid_argument(field_error(key, "is not a positive integer"));
  return it->get<uint64_t>();
}

std::string text_field(const nlohmann::json& line, const char* key, const std::string& fallback, bool required) {
  const auto it = line.find(key);
  if (it == line.end()) {
    if (required) throw std::invalid_argument(field_error(key, "is missing"));
    return fallback;
  }
  if (!it->is_string() || it->get<std::string>().empty())
    throw std::invalid_argument(field_error(key, "is not a non-empty string"));
  return it->get<std::string>();
}

Anchor anchor_of(const nlohmann::json& line) {
  if (!line.is_object()) throw std::invalid_argument("not a JSON object");
  Anchor a;
  a.label = text_field(line, "lib", "", true);
  if (line.contains("matrix")) {
    a.label += ' ';
    a.label += text_field(line, "matrix", "", true);
  }
  a.dtype = text_field(line, "dtype", "", true);
  try {
    parse_dtype(a.dtype, "dtype");
  } catch (const Error&) {
    throw std::invalid_argument("\"dtype\" '" + a.dtype + "' is not f32, f16, bf16, i8, u8 or u8i8");
  }
  a.layout = text_field(line, "layout", "nn", false);
  if (a.layout != "nn" && a.layout != "nt" && a.layout != "tn" && a.layout != "tt")
    throw std::invalid_argument("\"layout\" '" + a.layout + "' is not nn, nt, tn or tt");
  a.m = positive_count(line, "M");
  a.n = positive_count(line, "N");
  a.k = positive_count(line, "K");
  if (const auto it = line.find("cold"); it != line.end()) {
    if (!it->is_boolean()) throw std::invalid_argument("\"cold\" is not true or false");
    a.cold = it->get<bool>();
  }
  const auto us = line.find("us");
  if (us == line.end() || !us->is_number() || !std::isfinite(us->get<double>()) || us->get<double>() <= 0)
    throw std::invalid_argument("\"us\" is not a positive time");
  a.us = us->get<double>();
  return a;
}
}  // namespace

std::vector<Anchor> load_anchors(const std::string& path) {
  std::istringstream text(read_file(path));
  std::vector<Anchor> anchors;
  std::string line;
  for (size_t number = 1; std::getline(text, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      anchors.push_back(anchor_of(parse_json_without_duplicates<nlohmann::json>(line)));
    } catch (const JsonRefused& e) {
      throw Error(ExitCode::usage, "--anchor: " + path + ":" + std::to_string(number) + ": " + e.what());
    } catch (const nlohmann::json::exception& e) {
      throw Error(ExitCode::usage,
                  "--anchor: " + path + ":" + std::to_string(number) + ": not JSON (" + e.what() + ")");
    } catch (const std::invalid_argument& e) {
      throw Error(ExitCode::usage, "--anchor: " + path + ":" + std::to_string(number) + ": " + e.what());
    }
  }
  return anchors;
}

std::vector<Anchor> load_anchor_option(const std::string& value) {
  const size_t split = value.find('=');
  if (split == std::string::npos) return load_anchors(value);
  if (split == 0 || split + 1 == value.size())
    throw Error(ExitCode::usage, "--anchor: '" + value + "': expected FILE or DEVICE=FILE");
  std::vector<Anchor> anchors = load_anchors(value.substr(split + 1));
  for (Anchor& a : anchors) a.device = value.substr(0, split);
  return anchors;
}

std::vector<const Anchor*> anchors_for(const TableEntry& e, const std::string& device,
                                       const std::vector<Anchor>& anchors) {
  std::vector<const Anchor*> out;
  if (e.batch != 1) return out;
  for (const Anchor& a : anchors) {
    if (!a.device.empty() && device.find(a.device) == std::string::npos) continue;
    if (a.m == e.m && a.n == e.n && a.k == e.k && a.dtype == e.dtype && a.layout == e.layout && a.cold == e.cold)
      out.push_back(&a);
  }
  return out;
}

}  // namespace gemmtune
