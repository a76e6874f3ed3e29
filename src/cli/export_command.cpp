// `gemmtune export TABLE --format cpp --namespace NAME`: the header on stdout (or --out). No GPU.
#include <cstdio>

#include "cli/device_table.hpp"
#include "cli/options.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "report/export_cpp.hpp"

namespace gemmtune {

int run_export(const ExportCommandOptions& o) {
  if (o.format != "cpp") throw usage_error("--format", o.format, "expected cpp");
  if (!o.out.empty()) preflight_writable(o.out);
  const std::string header = export_cpp_header(load_table(o.table), o.ns, o.table, family_shape_needs);
  if (o.out.empty()) {
    std::fputs(header.c_str(), stdout);
  } else {
    write_file_atomic(o.out, header);
  }
  return 0;
}

}  // namespace gemmtune
