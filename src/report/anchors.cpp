#include "report/anchors.hpp"

#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.hpp"
#include "core/files.hpp"
#include "core/strict_json.hpp"
#include "report/schemas.hpp"

namespace gemmtune {

namespace {
/// The fields of a line that anchor-line.schema.json accepted (types and ranges are its to check).
Anchor anchor_of(const nlohmann::json& line) {
  Anchor a;
  a.label = line.at("lib").get<std::string>();
  if (line.contains("matrix")) a.label += " " + line.at("matrix").get<std::string>();
  a.dtype = line.at("dtype").get<std::string>();
  a.layout = line.value("layout", std::string("nn"));
  a.m = line.at("M").get<uint64_t>();
  a.n = line.at("N").get<uint64_t>();
  a.k = line.at("K").get<uint64_t>();
  a.cold = line.value("cold", false);
  a.us = line.at("us").get<double>();
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
      const nlohmann::json parsed = parse_json_without_duplicates<nlohmann::json>(line);
      if (auto e = anchor_line_schema().first_error(parsed))  // configs/schema/anchor-line.schema.json
        throw std::invalid_argument(*e);
      anchors.push_back(anchor_of(parsed));
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
