#include "cli/named_config.hpp"

#include <optional>

#include "core/error.hpp"

namespace gemmtune {

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
  std::optional<Config> config;
  for (const Config& c : named.family->all_configs()) {
    if (named.family->config_name(c, named.dtype) == name || named.family->full_config_name(c, named.dtype) == name)
      config = c;
  }
  if (!config) throw usage_error(option, name, "no config of " + named.family->name + " has this name");
  named.config = *config;
  return named;
}

}  // namespace gemmtune
