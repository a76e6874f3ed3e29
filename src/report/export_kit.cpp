#include "report/export_kit.hpp"

#include <map>

#include "core/error.hpp"
#include "report/export_cpp.hpp"

namespace gemmtune {

namespace {

/// `text` with the namespace `gemmtune::<inner>` renamed `<ns>::<inner>` (declaration and closing comment).
std::string renamed(std::string text, const std::string& inner, const std::string& ns) {
  const std::string from = "gemmtune::" + inner, to = ns + "::" + inner;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

/// The Vulkan helper's include of the rules, as the kit names them.
std::string kit_include(std::string text) {
  const std::string from = "#include \"core/dispatch_rules.hpp\"", to = "#include \"gemm_rules.hpp\"";
  const size_t at = text.find(from);
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

std::string words_source(std::span<const uint32_t> words) {
  std::string s;
  char hex[16];
  for (size_t i = 0; i < words.size(); ++i) {
    std::snprintf(hex, sizeof hex, "0x%08xu,", words[i]);
    s.append(i % 8 == 0 ? "\n    " : " ").append(hex);
  }
  return s;
}

std::string numbers(std::initializer_list<uint64_t> values) {
  std::string s;
  for (uint64_t v : values) s.append(s.empty() ? "" : ", ").append(std::to_string(v));
  return s;
}

std::string braced(const std::string& inner) { return std::string("{").append(inner).append("}"); }

// Every field of the rule, in declaration order: a field left out here would leave the kit dispatching another plan
// than gemmtune timed (the size check fails when a field is added, so that it is added here too).
static_assert(sizeof(rules::DispatchRule) == 6 * sizeof(uint32_t), "rule_source must list every DispatchRule field");
std::string rule_source(const rules::DispatchRule& r) {
  return braced(numbers({r.columns, r.columns_unaligned_b, r.rows, r.splits}) +
                (r.splits_along_x ? ", true" : ", false") + (r.one_pass_split ? ", true, " : ", false, ") +
                std::to_string(r.prepass));
}

std::string kernel_source(const rules::KernelConfig& k) {
  std::string tuned;
  for (uint32_t i = 0; i < k.tuned_count; ++i)
    tuned.append(i ? ", " : "").append(braced(numbers({k.tuned[i].id, k.tuned[i].value})));
  return braced(numbers({k.module, k.reduce_module, k.workgroup_size_id, k.workgroup_size}) + ", " +
                braced(braced(tuned)) + ", " + numbers({k.tuned_count, k.required_subgroup_size}) + ", " +
                rule_source(k.dispatch) + ", " + std::to_string(k.prepass_module));
}

/// The kit's modules, each once, by hash.
struct ModuleList {
  std::vector<KitModule> modules;
  std::map<std::string, uint32_t> index;
  uint32_t add(const KitModule& m) {
    auto [it, added] = index.emplace(m.hash, uint32_t(modules.size()));
    if (added) modules.push_back(m);
    return it->second;
  }
};

struct ExportedConfig {
  std::string name, dtype;
  KitKernel kernel;
  int alternative = -1;
};

const char* kPlanSource = R"(
inline const KitConfig* find_config(std::string_view name, std::string_view dtype) {
  for (const KitConfig& c : kConfigs)
    if (c.name == name && c.dtype == dtype) return &c;
  return nullptr;
}

/// Bytes per element of A and B for an input type name.
inline std::uint32_t input_bytes(std::string_view dtype) {
  if (dtype == "f32" || dtype.substr(0, 4) == "f32:") return 4;  // f32, and f32 activations of quantized B
  if (dtype == "f16" || dtype == "bf16" || dtype.substr(0, 4) == "f16:") return 2;
  return 1;  // i8, u8, u8i8
}

struct KitPlan {
  Choice choice;               // which config, by which rule, from which entry
  const KitConfig* config;     // null only for a dtype name gemmtune does not have
  rules::Plan plan;            // the passes to record (gemm_kit_vulkan.hpp)
};

/// The run of the tuned config for `op` (its input_bytes set from `dtype`): gemmtune lookup's rule on M, N, K,
/// dtype and layout, then gemmtune's plan for that config. `integer_dot_product`: the device has
/// shaderIntegerDotProduct, where gemmtune runs the 8-bit tiled kernel's packed-dot module.
inline KitPlan plan(rules::Operation op, std::string_view dtype, bool integer_dot_product = false) {
  op.input_bytes = input_bytes(dtype);
  const char* layout = op.trans_a ? (op.trans_b ? "tt" : "tn") : (op.trans_b ? "nt" : "nn");
  KitPlan out{lookup(op.m, op.n, op.k, dtype, layout, op.batch), nullptr, {}};
  out.config = find_config(out.choice.config, dtype);
  if (!out.config) return out;  // not an input type gemmtune has
  rules::KernelConfig kernel = out.config->kernel;
  if (integer_dot_product && out.config->alternative_module >= 0)
    kernel.module = std::uint32_t(out.config->alternative_module);
  out.plan = rules::plan(kernel, op);
  return out;
}

/// Why a running device is not the one the table was tuned on, or "" where it is: its name, PCI vendor and device
/// ids and driver version (VkPhysicalDeviceProperties). Every config still runs where its family's requirements
/// hold; the times and the choices are the tuned device's.
inline std::string device_mismatch(std::string_view name, std::uint32_t vendor_id, std::uint32_t device_id,
                                   std::uint32_t driver_version) {
  std::string why;
  auto add = [&](const std::string& what) { why += (why.empty() ? "" : "; ") + what; };
  if (name != kTunedFor.device)
    add("device '" + std::string(name) + "', tuned on '" + std::string(kTunedFor.device) + "'");
  if (vendor_id != kTunedFor.vendor_id || device_id != kTunedFor.device_id)
    add("PCI ids " + std::to_string(vendor_id) + ":" + std::to_string(device_id) + ", tuned on " +
        std::to_string(kTunedFor.vendor_id) + ":" + std::to_string(kTunedFor.device_id));
  const std::string driver = rules::driver_version_text(vendor_id, driver_version);
  if (driver != kTunedFor.driver_version)
    add("driver " + driver + ", tuned with " + std::string(kTunedFor.driver_version));
  return why;
}
)";

std::string header_comment(const TuningTable& table, const std::string& source) {
  return "// Generated by gemmtune export --format kit from " + source + ": " + table.device.name + ", driver " +
         table.device.driver_version + ", gemmtune " + table.tool.version + " (" + table.tool.git +
         "). Do not edit; export again.\n"
         "// plan() chooses a config by gemmtune lookup's rule (the exact shape, else the nearest verified entry of\n"
         "// the same dtype and layout that can serve it, else the default config) and plans its run with the rules\n"
         "// gemmtune's runner uses (gemm_rules.hpp); gemm_kit_vulkan.hpp records it.\n";
}

}  // namespace

std::vector<std::pair<std::string, std::string>> export_kit_files(
    const TuningTable& table, const std::string& ns, const std::string& source, const ShapeNeedsOf& needs_of,
    const KitKernelOf& kernel_of, const std::string& rules_header, const std::string& vulkan_header) {
  check_namespace_name(ns);
  // Every config the table chose, then the default config of every input type (lookup's answer for a type or layout
  // the table lacks), in first-seen order.
  std::vector<ExportedConfig> configs;
  std::map<std::pair<std::string, std::string>, uint32_t> config_index;
  auto add_config = [&](const std::string& name, const std::string& dtype) {
    if (config_index.count({name, dtype})) return;
    std::optional<KitKernel> kernel = kernel_of(name, dtype);
    if (!kernel) throw usage_error(source, name, "no kernel family of this gemmtune has this config");
    config_index[{name, dtype}] = uint32_t(configs.size());
    configs.push_back({name, dtype, std::move(*kernel)});
  };
  for (const TableEntry& e : table.entries) {
    if (e.best) add_config(e.best->name, e.dtype);
  }
  for (DType d : kAllDTypes) add_config(default_config(std::string(dtype_name(d))), std::string(dtype_name(d)));

  ModuleList modules;
  for (ExportedConfig& c : configs) {
    c.kernel.config.module = modules.add(c.kernel.main);
    c.kernel.config.reduce_module = modules.add(c.kernel.reduce);
    if (!c.kernel.prepass.words.empty()) c.kernel.config.prepass_module = modules.add(c.kernel.prepass);
    if (!c.kernel.alternative.words.empty()) c.alternative = int(modules.add(c.kernel.alternative));
  }

  std::string h = header_comment(table, source);
  h += "#pragma once\n\n#include <cmath>\n#include <cstddef>\n#include <cstdint>\n#include <string>\n"
       "#include <string_view>\n\n#include \"gemm_rules.hpp\"\n\nnamespace " +
       ns + " {\n\n";
  h += "struct TunedFor {\n  std::string_view device;\n  std::uint32_t vendor_id, device_id;\n"
       "  std::string_view driver_version, tool_version, tool_git, table;\n};\n";
  h += "inline constexpr TunedFor kTunedFor = {" + cpp_literal(table.device.name) + ", " +
       std::to_string(table.device.vendor_id) + "u, " + std::to_string(table.device.device_id) + "u, " +
       cpp_literal(table.device.driver_version) + ", " + cpp_literal(table.tool.version) + ", " +
       cpp_literal(table.tool.git) + ", " + cpp_literal(source) + "};\n\n";
  h += "// The SPIR-V modules, each once (the hash is gemmtune's, FNV-1a 64 over the words).\n";
  for (size_t i = 0; i < modules.modules.size(); ++i)
    h += "inline constexpr std::uint32_t kModule" + std::to_string(i) + "[] = {" +
         words_source(modules.modules[i].words) + "\n};\n";
  h += "struct KitModule {\n  const std::uint32_t* code;\n  std::size_t words;\n  std::string_view hash;\n};\n";
  h += "inline constexpr KitModule kModules[] = {\n";
  for (size_t i = 0; i < modules.modules.size(); ++i)
    h += "    {kModule" + std::to_string(i) + ", " + std::to_string(modules.modules[i].words.size()) + ", " +
         cpp_literal(modules.modules[i].hash) + "},\n";
  h += "};\n\n";
  h += "// Every config the table chose and each dtype's default: its modules (indices into kModules), workgroup\n"
       "// size, tuned constants, pinned subgroup size and dispatch rule; the packed-dot-product module of\n"
       "// an 8-bit kernel where there is one (-1: none).\n";
  h += "struct KitConfig {\n  std::string_view name, variant, dtype;\n  rules::KernelConfig kernel;\n"
       "  int alternative_module;\n};\n";
  h += "inline constexpr KitConfig kConfigs[] = {\n";
  for (const ExportedConfig& c : configs)
    h += "    {" + cpp_literal(c.name) + ", " + cpp_literal(c.kernel.variant) + ", " + cpp_literal(c.dtype) + ", " +
         kernel_source(c.kernel.config) + ", " + std::to_string(c.alternative) + "},\n";
  h += "};\n\n";
  // Entries tuned with kernels other than today's: the config runs as exported, its time was another kernel's.
  h += lookup_source(
      table, needs_of,
      "  std::uint32_t kit_config;  // its index in kConfigs\n"
      "  bool stale;  // tuned with other kernels than the kit's (its time is theirs)\n",
      [&](const TableEntry& e) {
        const ExportedConfig& c = configs[config_index.at({e.best->name, e.dtype})];
        const bool stale = !e.best->kernel_hash.empty() && e.best->kernel_hash != c.kernel.kernel_hash;
        return std::to_string(config_index.at({e.best->name, e.dtype})) + ", " + (stale ? "true" : "false");
      });
  h += kPlanSource;
  h += "\n}  // namespace " + ns + "\n";
  return {{"gemm_rules.hpp", renamed(rules_header, "rules", ns)},
          {"gemm_kit.hpp", h},
          {"gemm_kit_vulkan.hpp", kit_include(renamed(vulkan_header, "kit", ns))}};
}

}  // namespace gemmtune
