#include "cli/named_config.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include "core/error.hpp"

namespace gemmtune {

namespace {

/// The combination of parameter values `params` spells ("bm64_bn128_..."; parameters at their unnamed value may be
/// left out), in the family's declaration order, or nullopt where it spells none.
std::optional<Config> spelled_combination(const KernelFamily& family, const std::string& params) {
  std::vector<std::pair<std::string, std::string>> tokens;  // key, digits
  size_t start = 0;
  while (start <= params.size()) {
    const size_t end = std::min(params.find('_', start), params.size());
    const std::string token = params.substr(start, end - start);
    const size_t digits = token.find_first_of("0123456789");
    if (digits == 0 || digits == std::string::npos) return std::nullopt;
    tokens.push_back({token.substr(0, digits), token.substr(digits)});
    start = end + 1;
  }
  Config config;
  size_t next = 0;
  for (const ParamSpec& p : family.params) {
    if (next < tokens.size() && tokens[next].first == p.name) {
      const std::string& digits = tokens[next++].second;
      if (digits.size() > 9 || !std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit(c); }))
        return std::nullopt;
      config.values.push_back({p.name, uint32_t(std::stoul(digits))});
    } else if (p.unnamed_value) {
      config.values.push_back({p.name, *p.unnamed_value});
    } else {
      return std::nullopt;
    }
    if (std::find(p.values.begin(), p.values.end(), config.values.back().second) == p.values.end()) return std::nullopt;
  }
  if (next != tokens.size()) return std::nullopt;
  return config;
}

}  // namespace

NamedConfig config_named(const std::string& name, const std::string& option) {
  // The dtype is part of the name: <variant>_<dtype>_...
  const size_t first = name.find('_'), second = name.find('_', first + 1);
  if (first == std::string::npos || second == std::string::npos) {
    throw usage_error(option, name, "not a config name (<variant>_<dtype>_<param><value>...)");
  }
  NamedConfig named;
  named.dtype = parse_dtype(name.substr(first + 1, second - first - 1), option);
  named.family = find_family(name.substr(0, first));
  if (!named.family) throw usage_error(option, name, "unknown variant '" + name.substr(0, first) + "'");
  const std::optional<Config> config = spelled_combination(*named.family, name.substr(second + 1));
  // The name as tune prints it, or with every parameter (KernelFamily::config_name, full_config_name).
  if (!config || (named.family->config_name(*config, named.dtype) != name &&
                  named.family->full_config_name(*config, named.dtype) != name))
    throw usage_error(option, name, "no config of " + named.family->name + " has this name");
  if (auto rule = named.family->broken_layout_rule(*config))
    throw usage_error(option, name, "no kernel of " + named.family->name + ": " + *rule);
  named.config = *config;
  return named;
}

}  // namespace gemmtune
