#include "cli/suites.hpp"

#include <algorithm>

#include "builtin_suites.hpp"
#include "core/error.hpp"

namespace gemmtune {

std::vector<std::string> suite_names() {
  std::vector<std::string> names;
  for (const BuiltinSuite& s : kBuiltinSuites) names.emplace_back(s.name);
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<ShapeRequest> load_suite(const std::string& name) {
  for (const BuiltinSuite& s : kBuiltinSuites) {
    if (name == s.name) return parse_shapes_file(s.text, "configs/shapes/" + name + ".txt (built in)");
  }
  std::string known;
  for (const std::string& n : suite_names()) known += (known.empty() ? "" : ", ") + n;
  throw usage_error("--suite", name, "unknown suite (built in: " + known + ")");
}

}  // namespace gemmtune
