// `gemmtune export TABLE --format cpp --namespace NAME`: the header on stdout (or --out); `--format kit --out DIR`:
// the kit's folder (report/export_kit.hpp). No GPU.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "cli/device_table.hpp"
#include "cli/named_config.hpp"
#include "cli/options.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "kernels/spirv.hpp"
#include "kit_sources.hpp"
#include "report/export_cpp.hpp"
#include "report/export_kit.hpp"

namespace gemmtune {

namespace {

/// What the kit needs of a config name, from its family; nullopt for a name no family has.
std::optional<KitKernel> kit_kernel(const std::string& name, const std::string& dtype_text) {
  NamedConfig named;
  try {
    named = config_named(name, "config");
  } catch (const Error&) {
    return std::nullopt;
  }
  if (std::string(dtype_name(named.dtype)) != dtype_text) return std::nullopt;
  const KernelFamily& family = *named.family;
  if (!family.dispatch_rule) return std::nullopt;  // the test variants
  KitKernel k;
  k.variant = family.name;
  k.config = kernel_config(family, named.config, named.dtype);
  auto module = [](std::span<const uint32_t> words) { return KitModule{words, modules_hash({words})}; };
  const bool prepass = family.runs_prepass(named.config, named.dtype);
  k.main = module(prepass ? family.plane_spirv(named.dtype) : family.spirv(named.dtype));
  k.reduce = module(splitk_reduce_spirv(named.dtype));
  if (prepass) k.prepass = module(prepass_spirv(family.prepass_for(named.dtype), named.dtype));
  if (family.alternative_spirv) k.alternative = module(family.alternative_spirv(named.dtype));
  k.kernel_hash = family.kernel_hash(named.dtype);
  return k;
}

int run_export_kit(const ExportCommandOptions& o) {
  if (o.out.empty()) throw usage_error("--out", "", "--format kit writes a folder: name it with --out DIR");
  const std::vector<std::pair<std::string, std::string>> files = export_kit_files(
      load_table(o.table), o.ns, o.table, family_shape_needs, kit_kernel, kKitRulesHeader, kKitVulkanHeader);
  std::vector<std::string> names;
  for (const auto& file : files) names.push_back(file.first);
  write_folder_atomic(o.out, files, names, "--out");
  std::printf("kit for %s in %s: %zu files\n", o.table.c_str(), o.out.c_str(), files.size());
  return 0;
}

}  // namespace

int run_export(const ExportCommandOptions& o) {
  if (o.format == "kit") return run_export_kit(o);
  if (o.format != "cpp") throw usage_error("--format", o.format, "expected cpp or kit");
  if (!o.out.empty()) preflight_writable(o.out, "--out");
  const std::string header = export_cpp_header(load_table(o.table), o.ns, o.table, family_shape_needs);
  if (o.out.empty()) {
    std::fputs(header.c_str(), stdout);
  } else {
    write_file_atomic(o.out, header);
  }
  return 0;
}

}  // namespace gemmtune
