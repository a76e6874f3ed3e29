// `gemmtune compare BASE NEW`: exit 0 without regressions, 1 with, 2 for unreadable or invalid input (a corrupt
// baseline is never a pass), 3 for tables of different devices unless allowed. No GPU.
#include <cstdio>

#include "cli/options.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "report/compare.hpp"

namespace gemmtune {

namespace {
TuningTable load_for_compare(const std::string& path) {
  try {
    return load_table(path);
  } catch (const Error& e) {
    throw Error(ExitCode::usage, e.what());  // unreadable is as bad as malformed here: never a pass
  }
}
}  // namespace

int run_compare(const CompareCommandOptions& o) {
  CompareOptions options;
  options.threshold = parse_percent(o.threshold, "--threshold");
  if (o.format != "text" && o.format != "md" && o.format != "json" && o.format != "junit") {
    throw usage_error("--format", o.format, "expected text, md, json or junit");
  }
  if (!o.out.empty()) preflight_writable(o.out);
  const TuningTable base = load_for_compare(o.base);
  const TuningTable fresh = load_for_compare(o.fresh);
  const Comparison c = compare_tables(base, fresh, options);
  if (c.device_mismatch && !o.allow_device_mismatch) {
    throw Error(ExitCode::unsupported, o.fresh + ": a table of " + c.new_device + ", the baseline " + o.base +
                                           " is of " + c.base_device +
                                           " (--allow-device-mismatch compares them anyway)");
  }
  const std::string report = render_comparison(c, o.format, options);
  if (o.out.empty()) {
    std::fputs(report.c_str(), stdout);
  } else {
    write_file_atomic(o.out, report);
  }
  return c.regressed() ? static_cast<int>(ExitCode::unverified) : 0;
}

}  // namespace gemmtune
