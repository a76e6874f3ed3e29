#include "kernels/kernel_def.hpp"

#include <stdexcept>

namespace gemmtune {

uint32_t Config::get(const std::string& name) const {
  for (const auto& [key, value] : values) {
    if (key == name) return value;
  }
  throw std::out_of_range("config has no parameter '" + name + "'");
}

std::string KernelFamily::config_name(const Config& config, DType dtype) const {
  std::string s = name + "_" + std::string(dtype_name(dtype));
  for (const auto& [key, value] : config.values) s += "_" + key + std::to_string(value);
  return s;
}

std::vector<Config> KernelFamily::all_configs() const {
  std::vector<Config> out{Config{}};
  for (const ParamSpec& p : params) {
    std::vector<Config> next;
    for (const Config& partial : out) {
      for (uint32_t v : p.values) {
        Config c = partial;
        c.values.emplace_back(p.name, v);
        next.push_back(std::move(c));
      }
    }
    out = std::move(next);
  }
  return out;
}

std::vector<Constraint> device_limit_constraints() {
  std::vector<Constraint> out;
  out.push_back({"invocations", [](const KernelFamily& family, const Config& c, const Shape&, const vk::DeviceInfo& d) -> std::optional<std::string> {
                   uint32_t wg = family.workgroup_size(c);
                   if (wg > d.max_invocations)
                     return std::to_string(wg) + " invocations > maxComputeWorkGroupInvocations " + std::to_string(d.max_invocations);
                   if (wg > d.max_workgroup_size[0])
                     return std::to_string(wg) + " invocations > maxComputeWorkGroupSize.x " + std::to_string(d.max_workgroup_size[0]);
                   return std::nullopt;
                 }});
  out.push_back({"shared_memory", [](const KernelFamily& family, const Config& c, const Shape&, const vk::DeviceInfo& d) -> std::optional<std::string> {
                   uint64_t bytes = family.shared_bytes(c);
                   if (bytes > d.max_shared_memory)
                     return std::to_string(bytes) + " B shared memory > maxComputeSharedMemorySize " + std::to_string(d.max_shared_memory) + " B";
                   return std::nullopt;
                 }});
  out.push_back({"grid", [](const KernelFamily& family, const Config& c, const Shape& s, const vk::DeviceInfo& d) -> std::optional<std::string> {
                   auto g = family.grid(c, s);
                   static const char* axis = "xyz";
                   for (int i = 0; i < 3; ++i) {
                     if (g[i] > d.max_workgroup_count[i])
                       return std::to_string(g[i]) + " workgroups in " + axis[i] + " > maxComputeWorkGroupCount." + axis[i] + " " +
                              std::to_string(d.max_workgroup_count[i]);
                   }
                   return std::nullopt;
                 }});
  return out;
}

}  // namespace gemmtune
