// Choosing a config for a problem from a tuning table: the rule `gemmtune lookup` applies and that the
// headers of `gemmtune export` compile in. No GPU.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/shape_needs.hpp"

#include "report/table.hpp"

namespace gemmtune {

struct LookupResult {
  std::string rule;     ///< "exact", "nearest" or "default"
  std::string config;   ///< config name
  std::string from;     ///< the entry it came from ("1024x768x3072 f16 nn", "...x8" batched), empty for the default
  double distance = 0;  ///< nearest: sqrt of the summed squared differences of ln M, ln N, ln K, ln batch
  double median_us = 0;
  /// The key fields in which the entry used differs from the plain operation asked for (alpha, beta, bias,
  /// activation, mode, cold), in that order; empty where it is the plain operation.
  std::vector<std::string> relaxed;
  std::string numerics;  ///< the config's arithmetic, as the table records it ("native", "bf16x6")
};

/// What a tuned config needs of other shapes: its kernel family's ShapeNeeds (the CLI asks the families:
/// `tuned_shape_needs` in src/kernels/registry.hpp), or nullopt for a variant it does not know (then the config
/// serves only the shape it was tuned on).
using ShapeNeedsOf = std::function<std::optional<ShapeNeeds>(const ConfigResult& config, const std::string& dtype,
                                                             const std::string& layout)>;

/// The config for M x N x K x batch in `dtype` and `layout`: an entry of that shape and batch (the plain
/// operation, alpha 1, beta 0, no epilogue, fast, hot, first when several), else the verified entry of the same
/// dtype and layout nearest on (ln M, ln N, ln K, ln batch) whose config meets the shape's needs (`needs_of`),
/// ties to the first in the table, else the default config (default_config).
LookupResult lookup_config(const TuningTable& table, uint64_t m, uint64_t n, uint64_t k, uint64_t batch,
                           const std::string& dtype, const std::string& layout, const ShapeNeedsOf& needs_of);

/// Configs worth screening first for M x N x K x batch in `dtype`, from the table's `entries` verified entries of that
/// dtype nearest on (ln M, ln N, ln K, ln batch), a different layout counting as 0.5 further: their winners nearest
/// first, then their runners-up, then their per-variant bests; each name once, at most `limit`. An exact match's
/// winner comes first (a retune starts from what won before). Entries `skip` returns true for are left out. Entries of
/// `twin` (core/problem.hpp's twin_dtype: the same kernels in another element type; "" for none) count too, 0.25
/// further, their config names retyped to `dtype` (`coopmat_f16_...` -> `coopmat_bf16_...`).
std::vector<std::string> similar_winners(const TuningTable& table, uint64_t m, uint64_t n, uint64_t k, uint64_t batch,
                                         const std::string& dtype, const std::string& layout, size_t entries = 3,
                                         size_t limit = 8, const std::function<bool(const TableEntry&)>& skip = {},
                                         const std::string& twin = "");

/// A config name `<family>_<from>_...` with its dtype token changed to `to`; unchanged where its token is not `from`.
std::string retyped_config_name(const std::string& name, const std::string& from, const std::string& to);

/// The plain operation: alpha 1, beta 0, no epilogue, fast, hot, batch 1 (preferred when several entries match).
bool plain_operation(const TableEntry& e);

/// The fallback when a table has nothing of the dtype and layout: the portable tiled kernel with 64 x 64 tiles
/// and 4 x 4 per invocation (256 invocations, fits every Vulkan 1.1 device), for every dtype (the quantized ones
/// too: it decodes B's blocks while staging).
std::string default_config(const std::string& dtype);

}  // namespace gemmtune
