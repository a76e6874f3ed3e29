// `gemmtune lookup TABLE --shape MxNxK --dtype D [--layout L]`: the config a build should use, and the rule
// that chose it. The table must be of this machine's device (exit 3) unless --any-device.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/device_table.hpp"
#include "cli/options.hpp"
#include "core/error.hpp"
#include "core/measurement.hpp"
#include "report/lookup.hpp"
#include "vk/instance.hpp"

namespace gemmtune {

int run_lookup(const LookupCommandOptions& o) {
  const Shape shape = parse_shape(o.shape, "--shape");
  const DType dtype = parse_dtype(o.dtype, "--dtype");
  const Layout layout = parse_layout(o.layout, "--layout");
  const TuningTable table = load_table(o.table);
  if (!o.any_device) {
    vk::Instance instance(false);
    const DeviceIdentity here = device_identity(instance.select(o.device).info);
    const DeviceIdentity& there = table.device;
    if (here.name != there.name || here.vendor_id != there.vendor_id || here.device_id != there.device_id ||
        here.driver_id != there.driver_id || here.driver_version != there.driver_version) {
      throw Error(ExitCode::unsupported, o.table + ": a table of " + there.name + " (driver " + there.driver_version +
                                             "), this device is " + here.name + " (driver " + here.driver_version +
                                             "); --any-device uses it anyway");
    }
  }
  const LookupResult r = lookup_config(table, shape.m, shape.n, shape.k, shape.batch, std::string(dtype_name(dtype)),
                                       layout.name(), family_shape_needs);
  // The kernel of the entry used: the same SPIR-V as this build's, or changed since (stale: tune again).
  std::string kernel = "current";
  for (const TableEntry& e : table.entries) {
    if (r.rule != "default" && e.best && e.best->name == r.config) kernel = kernel_status(*e.best, e.dtype);
  }
  if (o.json) {
    nlohmann::ordered_json j = {{"config", r.config},     {"rule", r.rule},           {"from", r.from},
                                {"distance", r.distance}, {"median_us", r.median_us}, {"kernel", kernel},
                                {"relaxed", r.relaxed},   {"numerics", r.numerics}};
    std::printf("%s\n", j.dump(2).c_str());
  } else if (r.rule == "exact") {
    std::printf("%s\n  rule: exact (%s, %s)\n", r.config.c_str(), r.from.c_str(), time_text(r.median_us).c_str());
  } else if (r.rule == "nearest") {
    std::printf("%s\n  rule: nearest (%s, distance %.3f on ln M, ln N, ln K, ln batch)\n", r.config.c_str(),
                r.from.c_str(), r.distance);
  } else {
    std::printf("%s\n  rule: default (nothing of %s %s in the table)\n", r.config.c_str(), dtype_name(dtype).data(),
                layout.name().c_str());
  }
  if (!o.json && !r.relaxed.empty()) {
    std::string fields;
    for (const std::string& f : r.relaxed) fields += (fields.empty() ? "" : ", ") + f;
    std::printf("  relaxed: the entry differs from the plain operation in %s\n", fields.c_str());
  }
  if (!o.json && r.numerics != kNativeNumerics)
    std::printf("  numerics: %s (not the input type's native arithmetic; its results meet the same bound)\n",
                r.numerics.c_str());
  if (!o.json && kernel == "stale")
    std::printf("  kernel: changed since this entry was tuned (stale): tune it again\n");
  return 0;
}

}  // namespace gemmtune
