// `gemmtune merge A.json B.json ... -o OUT.json`: shards and separate sweeps of one device joined. No GPU.
#include <spdlog/spdlog.h>

#include "cli/options.hpp"
#include "core/files.hpp"
#include "report/merge.hpp"
#include "version.hpp"

namespace gemmtune {

int run_merge(const MergeCommandOptions& o) {
  preflight_writable(o.out, "--out");
  std::vector<TuningTable> tables;
  for (const std::string& path : o.inputs) tables.push_back(load_table(path));  // every input read before writing
  TuningTable merged = merge_tables(tables, o.inputs);
  merged.tool = {"gemmtune", kVersion, kGitHash};
  merged.created = utc_now();
  update_table(o.out, [&](TuningTable& t) { t = merged; });  // locked, like every table update
  size_t total = 0;
  for (const TuningTable& t : tables) total += t.entries.size();
  spdlog::info("{}: {} entries from {} tables ({} entries in all)", o.out, merged.entries.size(), tables.size(), total);
  return 0;
}

}  // namespace gemmtune
