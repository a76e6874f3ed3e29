#include "kernels/space_file.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "core/error.hpp"
#include "core/strict_json.hpp"
#include "kernels/registry.hpp"
#include "default_space.hpp"

namespace gemmtune {

using json = nlohmann::json;

const std::string& default_space_text() {
  static const std::string text(kDefaultSpaceJson);
  return text;
}

namespace {
std::string listed(const std::vector<uint32_t>& values) {
  std::string s;
  for (uint32_t v : values) s += (s.empty() ? "" : ", ") + std::to_string(v);
  return s;
}

}  // namespace

std::vector<KernelFamily> apply_space(const std::string& text, const std::string& source,
                                      const std::vector<const KernelFamily*>& families) {
  json j;
  try {
    j = parse_json_without_duplicates<json>(text);
  } catch (const json::parse_error& e) {
    throw Error(ExitCode::usage, source + ":" + text_position(text, e.byte > 0 ? e.byte - 1 : 0) + ": invalid JSON");
  } catch (const JsonRefused& e) {
    throw Error(ExitCode::usage, source + ": invalid space file: " + e.what());
  }
  // `where` holds the file's own keys: escaped, so a control character in a key cannot break the line.
  auto refuse = [&](const std::string& where, const std::string& why) {
    return Error(ExitCode::usage, source + ": " + escaped(where) + ": " + why);
  };
  if (!j.is_object() || !j.contains("variants") || !j.at("variants").is_object()) {
    throw refuse("top level", "expected an object with \"variants\": {variant: {parameter: [values]}}");
  }
  if (!j.contains("space_version") || j.at("space_version") != 1) throw refuse("space_version", "expected 1");
  const json& variants = j.at("variants");
  for (const auto& [name, params] : variants.items()) {
    if (!find_family(name)) throw refuse("variants." + name, "unknown variant (expected " + variant_names() + ")");
    if (!params.is_object()) throw refuse("variants." + name, "expected an object {parameter: [values]}");
  }
  std::vector<KernelFamily> out;
  for (const KernelFamily* family : families) {
    KernelFamily f = *family;
    if (variants.contains(f.name)) {
      const json& params = variants.at(f.name);
      for (const auto& item : params.items()) {
        const std::string& pname = item.key();
        const json& values = item.value();
        const std::string where = "variants." + f.name + "." + pname;
        auto spec = std::find_if(f.params.begin(), f.params.end(), [&](const ParamSpec& p) { return p.name == pname; });
        if (spec == f.params.end()) {
          std::string names;
          for (const ParamSpec& p : f.params) names += (names.empty() ? "" : ", ") + p.name;
          throw refuse(where, "unknown parameter (" + f.name + " has " + names + ")");
        }
        if (!values.is_array() || values.empty()) throw refuse(where, "expected a non-empty list of values");
        std::vector<uint32_t> chosen;
        for (const json& v : values) {
          const ParamSpec& supported = family->params[size_t(spec - f.params.begin())];
          if (!v.is_number_unsigned() || std::find(supported.values.begin(), supported.values.end(),
                                                   v.get<uint64_t>()) == supported.values.end()) {
            throw refuse(where, v.dump() + " is not supported (supported: " + listed(supported.values) + ")");
          }
          if (std::find(chosen.begin(), chosen.end(), v.get<uint32_t>()) == chosen.end())
            chosen.push_back(v.get<uint32_t>());
        }
        spec->values = chosen;
      }
      // Listed anew where the file narrows the values (the built-in default names them all: the list is shared).
      if (!std::equal(f.params.begin(), f.params.end(), family->params.begin(),
                      [](const ParamSpec& a, const ParamSpec& b) { return a.values == b.values; }))
        f.config_list = std::make_shared<KernelFamily::ConfigList>();
    }
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace gemmtune
