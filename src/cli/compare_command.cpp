// `gemmtune compare BASE NEW`: exit 0 without regressions, 1 with, 2 for unreadable or invalid input (a corrupt
// baseline is never a pass), 3 for tables of different devices unless allowed. No GPU, but for --rerun, which
// re-measures each regression's two configs on this device before it fails the run.
#include <cstdio>

#include "cli/device_table.hpp"
#include "cli/named_config.hpp"
#include "cli/options.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "report/compare.hpp"
#include "run/gemm_runner.hpp"
#include "vk/device.hpp"
#include "vk/instance.hpp"

namespace gemmtune {

namespace {
TuningTable load_for_compare(const std::string& path) {
  try {
    return load_table(path);
  } catch (const Error& e) {
    throw Error(ExitCode::usage, e.what());  // unreadable is as bad as malformed here: never a pass
  }
}

/// The operation a table entry's key describes.
GemmProblem problem_of(const TableEntry& e) {
  GemmProblem p;
  p.shape = {e.m, e.n, e.k, e.batch};
  p.dtype = parse_dtype(e.dtype, "dtype");
  p.layout = parse_layout(e.layout, "layout");
  p.alpha = float(e.alpha);
  p.beta = float(e.beta);
  p.a = {e.ld.a, e.offset.a, e.batch_stride.a};
  p.b = {e.ld.b, e.offset.b, e.batch_stride.b};
  p.c = {e.ld.c, e.offset.c, e.batch_stride.c};
  p.epilogue = {e.bias, e.bias_offset, parse_activation(e.activation, "activation")};
  p.mode = parse_mode(e.mode, "mode");
  return p;
}

/// Both configs of a suspected regression timed again on `device`, a sample at a time in the order base, new, new,
/// base, ..., so that a drift of the machine's speed (a loaded CPU device, a GPU's clocks) falls on both alike.
/// Each turn verifies again (cheap: the pipelines and the reference are kept) and warms up for 50 ms.
Rerun rerun_entry(const vk::Device& device, const TableEntry& base, const TableEntry& fresh, int samples) {
  Rerun rerun;
  try {
    const GemmProblem problem = problem_of(fresh);
    const NamedConfig old_config = config_named(base.best->name, "BASE");
    const NamedConfig new_config = config_named(fresh.best->name, "NEW");
    RunOptions run;
    run.cold_bytes = fresh.cold ? kColdBytes : 0;
    run.warmup_ns = 50'000'000.0;
    GemmRunner runner(device, problem, run);
    for (int turn = 0; turn < 2 * samples; ++turn) {
      const bool base_turn = (turn % 4 == 0) || (turn % 4 == 3);
      const NamedConfig& named = base_turn ? old_config : new_config;
      const Measurement m = runner.evaluate(*named.family, named.config, 1, 1);
      if (m.disposition != Disposition::passed) {
        rerun.failure = named.family->config_name(named.config, named.dtype) + " " +
                        std::string(disposition_name(m.disposition)) + (m.detail.empty() ? "" : ": " + m.detail);
        return rerun;
      }
      std::vector<double>& into = base_turn ? rerun.base_samples_us : rerun.new_samples_us;
      into.insert(into.end(), m.samples_us.begin(), m.samples_us.end());
    }
  } catch (const Error& e) {
    rerun.failure = e.what();
  }
  return rerun;
}

/// Why this build on this device cannot time what `side`'s table timed for entry `e`, or nullopt: a rerun runs this
/// build's kernels on this driver for both sides, so it can only clear a slowdown whose cause is in neither (a config
/// choice, noise, the machine's state); a changed kernel or driver would be timed alike on both sides and cleared
/// falsely.
std::optional<std::string> unreproducible(const TableEntry& e, const TuningTable& table, const std::string& side,
                                          const vk::Device& device) {
  const std::string here = device_identity(device.info()).driver_version;
  if (here != table.device.driver_version)
    return side + " ran on driver " + table.device.driver_version + ", this device runs " + here;
  if (e.best->kernel_hash.empty()) return side + " does not record its kernel's hash";
  std::string hash;
  try {
    const NamedConfig named = config_named(e.best->name, side);
    hash = named.family->kernel_hash(named.dtype);
  } catch (const Error&) {  // a family or parameter this build does not have: nothing here can time it
    return side + "'s config " + e.best->name + " is not one this build has";
  }
  if (e.best->kernel_hash != hash)
    return side + "'s kernel (" + e.best->kernel_hash + ") is not this build's (" + hash + ")";
  return std::nullopt;
}

/// --rerun: every regressed entry (not a lost one: there is nothing to time) judged again on this device, where
/// this build and driver run what the baseline ran.
void rerun_regressions(Comparison& c, const TuningTable& base, const TuningTable& fresh, const CompareCommandOptions& o,
                       const CompareOptions& options) {
  vk::Instance instance(vk::validation_requested_by_env());
  vk::Device device(instance, instance.select(o.device));
  if (device.info().name != fresh.device.name) {
    throw Error(ExitCode::unsupported, "--rerun: " + o.fresh + " is a table of " + fresh.device.name +
                                           ", this device is " + device.info().name + " (--device picks another)");
  }
  for (EntryComparison& r : c.entries) {
    if (r.status != "regressed") continue;  // both sides have a verified best
    const TableEntry& b = base.entries.at(r.base_index.value());
    const TableEntry& n = fresh.entries.at(r.new_index.value());
    std::optional<std::string> why = unreproducible(b, base, "BASE", device);
    if (!why) why = unreproducible(n, fresh, "NEW", device);
    if (why) {
      r.rerun = "not rerun: " + *why;  // stays a regression
      continue;
    }
    std::fprintf(stderr, "compare --rerun: %s: %s against %s on %s\n", r.key.c_str(), b.best->name.c_str(),
                 n.best->name.c_str(), device.info().name.c_str());
    apply_rerun(r, rerun_entry(device, b, n, o.samples), options);
  }
}
}  // namespace

int run_compare(const CompareCommandOptions& o) {
  CompareOptions options;
  options.threshold = parse_percent(o.threshold, "--threshold");
  auto known = [](const std::string& f) { return f == "text" || f == "md" || f == "json" || f == "junit"; };
  if (!known(o.format)) throw usage_error("--format", o.format, "expected text, md, json or junit");
  if (!o.out.empty()) preflight_writable(o.out, "--out");
  std::vector<std::pair<std::string, std::string>> also;  // (format, file)
  for (const std::string& value : o.also) {
    const size_t eq = value.find('=');
    if (eq == std::string::npos || !known(value.substr(0, eq)) || eq + 1 == value.size())
      throw usage_error("--also", value, "expected FORMAT=FILE with FORMAT text, md, json or junit");
    also.emplace_back(value.substr(0, eq), value.substr(eq + 1));
    preflight_writable(also.back().second, "--also");
  }
  const TuningTable base = load_for_compare(o.base);
  const TuningTable fresh = load_for_compare(o.fresh);
  Comparison c = compare_tables(base, fresh, options);
  if (c.device_mismatch && !o.allow_device_mismatch) {
    throw Error(ExitCode::unsupported, o.fresh + ": a table of " + c.new_device + ", the baseline " + o.base +
                                           " is of " + c.base_device +
                                           " (--allow-device-mismatch compares them anyway)");
  }
  if (o.rerun && c.regressed()) rerun_regressions(c, base, fresh, o, options);
  for (const auto& [format, file] : also) write_file_atomic(file, render_comparison(c, format, options));
  const std::string report = render_comparison(c, o.format, options);
  if (o.out.empty()) {
    std::fputs(report.c_str(), stdout);
  } else {
    write_file_atomic(o.out, report);
  }
  return c.regressed() ? static_cast<int>(ExitCode::unverified) : 0;
}

}  // namespace gemmtune
