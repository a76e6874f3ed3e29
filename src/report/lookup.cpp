#include "report/lookup.hpp"

#include <algorithm>
#include <cmath>

namespace gemmtune {

namespace {
/// Where `e` is not the plain operation that lookup asks for.
std::vector<std::string> relaxed_fields(const TableEntry& e) {
  std::vector<std::string> out;
  if (e.alpha != 1.0) out.push_back("alpha");
  if (e.beta != 0.0) out.push_back("beta");
  if (e.bias) out.push_back("bias");
  if (e.activation != "none") out.push_back("activation");
  if (e.mode != "fast") out.push_back("mode");
  if (e.cold) out.push_back("cold");
  return out;
}

std::string shape_of(const TableEntry& e) {
  return std::to_string(e.m) + "x" + std::to_string(e.n) + "x" + std::to_string(e.k) +
         (e.batch > 1 ? "x" + std::to_string(e.batch) : "") + " " + e.dtype + " " + e.layout;
}
}  // namespace

bool plain_operation(const TableEntry& e) { return relaxed_fields(e).empty() && e.batch == 1; }

std::string default_config(const std::string& dtype) {
  // Config names hold the dtype's token ("f16q4" for f16:q4_0); a name no dtype has stays as it is.
  std::string token = dtype;
  for (DType d : kAllDTypes)
    if (dtype == dtype_name(d)) token = dtype_token(d);
  return "tiled_" + token + "_bm64_bn64_bk16_tm4_tn4";
}

LookupResult lookup_config(const TuningTable& table, uint64_t m, uint64_t n, uint64_t k, uint64_t batch,
                           const std::string& dtype, const std::string& layout, const ShapeNeedsOf& needs_of) {
  const TableEntry* exact = nullptr;
  const TableEntry* nearest = nullptr;
  double best_distance = 0;
  for (const TableEntry& e : table.entries) {
    if (e.dtype != dtype || e.layout != layout || !e.best) continue;
    if (e.m == m && e.n == n && e.k == k && e.batch == batch &&
        (!exact || (plain_operation(e) && !plain_operation(*exact))))
      exact = &e;
    const std::optional<ShapeNeeds> needs = needs_of(*e.best, dtype, layout);
    if (!needs || unmet_shape_needs(*needs, m, n, k)) continue;
    const double dm = std::log(double(e.m)) - std::log(double(m));
    const double dn = std::log(double(e.n)) - std::log(double(n));
    const double dk = std::log(double(e.k)) - std::log(double(k));
    const double db = std::log(double(e.batch)) - std::log(double(batch));
    const double d = std::sqrt(dm * dm + dn * dn + dk * dk + db * db);
    if (!nearest || d < best_distance || (d == best_distance && plain_operation(e) && !plain_operation(*nearest))) {
      nearest = &e;
      best_distance = d;
    }
  }
  if (exact) {
    return {"exact",
            exact->best->name,
            shape_of(*exact),
            0.0,
            exact->best->median_us,
            relaxed_fields(*exact),
            exact->best->numerics};
  }
  if (nearest) {
    return {"nearest",
            nearest->best->name,
            shape_of(*nearest),
            best_distance,
            nearest->best->median_us,
            relaxed_fields(*nearest),
            nearest->best->numerics};
  }
  return {"default", default_config(dtype), "", 0.0, 0.0, {}, std::string(kNativeNumerics)};
}

std::string retyped_config_name(const std::string& name, const std::string& from, const std::string& to) {
  const size_t start = name.find('_');
  if (start == std::string::npos) return name;
  const size_t end = name.find('_', start + 1);
  const size_t length = (end == std::string::npos ? name.size() : end) - start - 1;
  if (name.compare(start + 1, length, from) != 0) return name;
  return name.substr(0, start + 1) + to + name.substr(start + 1 + length);
}

std::vector<std::string> similar_winners(const TuningTable& table, uint64_t m, uint64_t n, uint64_t k, uint64_t batch,
                                         const std::string& dtype, const std::string& layout, size_t entries,
                                         size_t limit, const std::function<bool(const TableEntry&)>& skip,
                                         const std::string& twin) {
  // A twin's entry of the same shape ranks before a same-dtype neighbour a factor 1.3 away in one dimension: the
  // kernels are the same code, and their winners on one shape mostly the same config.
  constexpr double kTwinDistance = 0.25;
  std::vector<std::pair<double, const TableEntry*>> near;
  for (const TableEntry& e : table.entries) {
    const bool own = e.dtype == dtype;
    if ((!own && (twin.empty() || e.dtype != twin)) || !e.best || (skip && skip(e))) continue;
    const double dm = std::log(double(e.m)) - std::log(double(m));
    const double dn = std::log(double(e.n)) - std::log(double(n));
    const double dk = std::log(double(e.k)) - std::log(double(k));
    const double db = std::log(double(e.batch)) - std::log(double(batch));
    near.emplace_back(std::sqrt(dm * dm + dn * dn + dk * dk + db * db) + (e.layout == layout ? 0.0 : 0.5) +
                          (own ? 0.0 : kTwinDistance),
                      &e);
  }
  std::stable_sort(near.begin(), near.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  auto add_retyped = [&](const std::string& name, const std::string& from) {
    const std::string own_name = from == dtype ? name : retyped_config_name(name, from, dtype);
    if (out.size() < limit && std::find(out.begin(), out.end(), own_name) == out.end()) out.push_back(own_name);
  };
  // In rounds: every near entry's winner before any runner-up, and those before the families' bests, so the
  // neighbours' winners are not crowded out by the nearest entry's also-rans.
  const size_t count = std::min(near.size(), entries);
  for (size_t i = 0; i < count; ++i) add_retyped(near[i].second->best->name, near[i].second->dtype);
  for (size_t i = 0; i < count; ++i)
    if (near[i].second->runner_up) add_retyped(near[i].second->runner_up->name, near[i].second->dtype);
  for (size_t i = 0; i < count; ++i)
    for (const VariantBest& v : near[i].second->variant_best) add_retyped(v.name, near[i].second->dtype);
  return out;
}

}  // namespace gemmtune
