#include "report/lookup.hpp"

#include <cmath>

namespace gemmtune {

bool plain_operation(const TableEntry& e) {
  return e.alpha == 1.0 && e.beta == 0.0 && !e.bias && e.activation == "none" && e.mode == "fast" && !e.cold && e.batch == 1;
}

namespace {

/// Whether a tuned config can run another shape: few-rows serves at most 8 rows, row-dot 16 (row-mma
/// also K >= 16 in whole groups of 8); split-k needs at least 64
/// terms in each of its ranges; the other variants serve any shape.
bool serves(const ConfigResult& c, uint64_t m, uint64_t k) {
  if (c.variant == "fewrows") return m <= 8;
  if (c.variant == "rowdot") return m <= 16;
  if (c.variant == "rowmma") return m <= 16 && k >= 16 && k % 8 == 0;  // whole 16-byte groups of k
  for (const auto& [name, value] : c.params) {
    if (name == "splits" && value > 1 && k < 64ull * value) return false;
  }
  return true;
}

std::string shape_of(const TableEntry& e) {
  return std::to_string(e.m) + "x" + std::to_string(e.n) + "x" + std::to_string(e.k) + " " + e.dtype + " " + e.layout;
}
}  // namespace

std::string default_config(const std::string& dtype) { return "tiled_" + dtype + "_bm64_bn64_bk16_tm4_tn4"; }

LookupResult lookup_config(const TuningTable& table, uint64_t m, uint64_t n, uint64_t k, const std::string& dtype,
                           const std::string& layout) {
  const TableEntry* exact = nullptr;
  const TableEntry* nearest = nullptr;
  double best_distance = 0;
  for (const TableEntry& e : table.entries) {
    if (e.dtype != dtype || e.layout != layout || !e.best) continue;
    if (e.m == m && e.n == n && e.k == k && (!exact || (plain_operation(e) && !plain_operation(*exact)))) exact = &e;
    if (!serves(*e.best, m, k)) continue;
    const double dm = std::log(double(e.m)) - std::log(double(m));
    const double dn = std::log(double(e.n)) - std::log(double(n));
    const double dk = std::log(double(e.k)) - std::log(double(k));
    const double d = std::sqrt(dm * dm + dn * dn + dk * dk);
    if (!nearest || d < best_distance || (d == best_distance && plain_operation(e) && !plain_operation(*nearest))) {
      nearest = &e;
      best_distance = d;
    }
  }
  if (exact) return {"exact", exact->best->name, shape_of(*exact), 0.0, exact->best->median_us};
  if (nearest) return {"nearest", nearest->best->name, shape_of(*nearest), best_distance, nearest->best->median_us};
  return {"default", default_config(dtype), "", 0.0, 0.0};
}

}  // namespace gemmtune
