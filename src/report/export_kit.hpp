// `gemmtune export --format kit`: a folder a downstream C++17 build includes to run the tuned kernels themselves,
// the SPIR-V, the constants, the lookup rule and the dispatch rules gemmtune's runner plans with. No GPU.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/dispatch_rules.hpp"
#include "report/lookup.hpp"
#include "report/table.hpp"

namespace gemmtune {

struct KitModule {
  std::span<const uint32_t> words;
  std::string hash;  ///< "fnv1a64:..." over the words
};

/// What a kit needs of one config, from its kernel family (the CLI asks the families).
struct KitKernel {
  std::string variant;
  rules::KernelConfig config;  ///< its module 0 is `main`, its reduce module 1 `reduce`, its pre-pass module 2
  KitModule main, reduce;
  KitModule prepass;        ///< the decoding pre-pass of weights in blocks, where the config has one (empty: none)
  KitModule alternative;    ///< the packed-dot module of the 8-bit types (empty: none)
  std::string kernel_hash;  ///< the family's today: an entry tuned with another is stale
};
/// The kernel of a config named in a table (or the default config), or nullopt for a name no family has.
using KitKernelOf = std::function<std::optional<KitKernel>(const std::string& config, const std::string& dtype)>;

/// The files of the kit: name -> text. `ns` (a C++ identifier) is the kit's namespace; `source` names the table;
/// `needs_of` gives what each entry's config needs of other shapes, as for `gemmtune lookup` (report/lookup.hpp);
/// `rules_header` and `vulkan_header` are the texts of src/core/dispatch_rules.hpp and src/kit/gemm_kit_vulkan.hpp,
/// written with their namespace renamed into `ns`. A table entry whose config no family knows is a usage Error.
std::vector<std::pair<std::string, std::string>> export_kit_files(
    const TuningTable& table, const std::string& ns, const std::string& source, const ShapeNeedsOf& needs_of,
    const KitKernelOf& kernel_of, const std::string& rules_header, const std::string& vulkan_header);

}  // namespace gemmtune
