// `gemmtune report TABLE... [--anchor FILE]... -o report.html`: every table and anchor file read first (a bad one is
// exit 2, nothing written), then the page written atomically. No GPU.
#include "cli/options.hpp"
#include "core/files.hpp"
#include "kernels/registry.hpp"
#include "report/html_report.hpp"

namespace gemmtune {

int run_report(const ReportCommandOptions& o) {
  preflight_writable(o.out, "--out");
  std::vector<NamedTable> tables;
  for (const std::string& path : o.tables) tables.push_back({path, load_table(path)});
  std::vector<Anchor> anchors;
  for (const std::string& value : o.anchors) {
    std::vector<Anchor> read = load_anchor_option(value);
    anchors.insert(anchors.end(), read.begin(), read.end());
  }
  std::map<std::string, std::string> colors{{baseline_family().name, baseline_family().color}};
  for (const KernelFamily* f : kernel_families()) colors[f->name] = f->color;
  write_file_atomic(o.out, html_report(tables, colors, anchors));
  return 0;
}

}  // namespace gemmtune
