#include "report/merge.hpp"

#include "core/error.hpp"

namespace gemmtune {

namespace {
/// True when `candidate` should replace `kept` for the same key.
bool better(const TableEntry& candidate, const TableEntry& kept) {
  if (!candidate.best) return false;
  if (!kept.best) return true;
  return candidate.best->median_us < kept.best->median_us;
}
}  // namespace

TuningTable merge_tables(const std::vector<TuningTable>& tables, const std::vector<std::string>& sources) {
  if (tables.empty()) throw Error(ExitCode::usage, "merge: no tables given");
  TuningTable out = tables.front();
  out.entries.clear();
  for (size_t t = 0; t < tables.size(); ++t) {
    const TuningTable& table = tables[t];
    if (!(table.device == out.device)) {
      throw Error(ExitCode::unsupported, sources[t] + ": a table of " + table.device.name + " (driver " +
                                             table.device.driver_version + ", cache " +
                                             table.device.pipeline_cache_uuid + "), " + sources[0] + " is of " +
                                             out.device.name + " (driver " + out.device.driver_version + ", cache " +
                                             out.device.pipeline_cache_uuid + "): merge joins tables of one device");
    }
    if (table.peak && (!out.peak || table.peak->measured > out.peak->measured)) out.peak = table.peak;
    for (const TableEntry& e : table.entries) {
      bool found = false;
      for (TableEntry& kept : out.entries) {
        if (!kept.same_key(e)) continue;
        found = true;
        if (better(e, kept)) kept = e;
      }
      if (!found) out.entries.push_back(e);
    }
  }
  return out;
}

}  // namespace gemmtune
