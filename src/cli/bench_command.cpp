// `gemmtune bench --config NAME`: one config verified and timed on each requested shape; no table is written.
#include <nlohmann/json.hpp>

#include <cstdio>

#include "cli/named_config.hpp"
#include "cli/options.hpp"
#include "cli/requested.hpp"
#include "cli/tune_output.hpp"
#include "core/error.hpp"
#include "run/gemm_runner.hpp"
#include "tuner/tuner.hpp"
#include "vk/device.hpp"
#include "vk/instance.hpp"

namespace gemmtune {

namespace {

using PassTimes = std::vector<std::pair<std::string, double>>;

/// One problem's object of `--json`'s "results".
nlohmann::json result_json(const GemmProblem& problem, bool cold, const std::string& config_name, const Measurement& m,
                           const PassTimes& passes) {
  nlohmann::json statistics = nlohmann::json::object();  // the driver's, where it lists them (registers)
  for (const auto& [name, value] : m.pipeline_statistics) statistics[name] = value;
  nlohmann::json out = {{"m", problem.shape.m},
                        {"n", problem.shape.n},
                        {"k", problem.shape.k},
                        {"batch", problem.shape.batch},
                        {"dtype", std::string(dtype_name(problem.dtype))},
                        {"layout", problem.layout.name()},
                        {"cold", cold},
                        {"config", config_name},
                        {"disposition", disposition_name(m.disposition)},
                        {"detail", m.detail},
                        {"median_us", m.median_us},
                        {"min_us", m.min_us},
                        {"compile_ms", m.compile_ms},
                        {"cv", m.cv},
                        {"gflops", m.gflops},
                        {"samples", m.samples_us.size()},
                        {"runs_per_sample", m.runs_per_sample},
                        {"error", m.error.error},
                        {"bound", m.error.bound},
                        {"pipeline_statistics", statistics}};
  if (!passes.empty()) {
    nlohmann::json pass_us = nlohmann::json::object();
    for (const auto& [name, us] : passes) pass_us[name] = us;
    out["passes_us"] = pass_us;
  }
  return out;
}

/// One problem's lines of the text output.
void print_result(const GemmProblem& problem, bool cold, const std::string& config_name, const Measurement& m,
                  const PassTimes& passes) {
  if (m.disposition != Disposition::passed) {
    std::printf("%s %s: %s: %s\n", describe(problem).c_str(), config_name.c_str(), disposition_name(m.disposition),
                m.detail.c_str());
    return;
  }
  std::printf("%s%s %s: median %.2f us, min %.2f us, %.2f %s, %zux%u samples, error %.1e / %.0e\n",
              describe(problem).c_str(), cold ? " cold" : "", config_name.c_str(), m.median_us, m.min_us, m.gflops,
              is_integer(problem.dtype) ? "GOP/s" : "GFLOP/s", m.samples_us.size(), m.runs_per_sample, m.error.error,
              m.error.bound);
  if (passes.empty()) return;
  std::string line;
  char us_text[32];
  for (const auto& [name, us] : passes) {
    std::snprintf(us_text, sizeof us_text, " %.2f us", us);
    line += (line.empty() ? "" : ", ") + name + us_text;
  }
  std::printf("  each pass alone: %s\n", line.c_str());
}

}  // namespace

int run_bench(const TuneCommandOptions& o, const std::string& config_name) {
  const NamedConfig named = config_named(config_name, "--config");
  const KernelFamily* family = named.family;
  const DType dtype = named.dtype;
  TuneCommandOptions single = o;
  single.dtypes = {dtype};
  for (const ShapeRequest& shape : o.shapes) {
    for (const GemmProblem& p : problems_of(single, shape)) resolve(p);
  }

  vk::Instance instance(vk::validation_requested_by_env());
  vk::Device device(instance, instance.select(o.device));
  ExitCode worst = ExitCode::ok;
  nlohmann::json results = nlohmann::json::array();  // --json: one object per problem, printed at the end
  for (const ShapeRequest& shape : o.shapes) {
    for (const GemmProblem& problem : problems_of(single, shape)) {
      SearchSpace space = build_search_space({family}, problem, device.info());
      for (const NotApplicable& n : space.not_applicable) {
        throw Error(ExitCode::unsupported, "--config: '" + config_name + "': " + n.variant + " cannot serve " +
                                               describe(problem) + ": " + n.reason);
      }
      // Its family's constraints, also where the problem's space does not sweep the config (tiles at a long K).
      if (auto pc = broken_constraint(*family, named.config, config_name, problem, device.info())) {
        throw Error(ExitCode::unsupported,
                    "--config: '" + config_name + "': pruned on " + device.info().name + ": " + pc->reason);
      }
      RunOptions run;
      run.seed = o.seed;
      run.cold_bytes = o.cold ? kColdBytes : 0;
      GemmRunner runner(device, problem, run);
      const Measurement m = runner.evaluate(*family, named.config, o.warmup, o.samples);
      if (m.disposition != Disposition::passed) worst = ExitCode::unverified;
      // A config of several passes (a pre-pass, split-k's reduce pass): each pass alone, where the time goes.
      PassTimes passes;
      const rules::Plan plan = rules::plan(kernel_config(*family, named.config, dtype), operation_of(problem));
      if (m.disposition == Disposition::passed && plan.pass_count > 1)
        passes = runner.pass_times(*family, named.config, m.runs_per_sample);
      if (o.json) {
        results.push_back(result_json(problem, o.cold, config_name, m, passes));
        continue;
      }
      print_result(problem, o.cold, config_name, m, passes);
    }
  }
  if (o.json) std::printf("%s\n", nlohmann::json{{"results", results}}.dump(2).c_str());
  return static_cast<int>(worst);
}

}  // namespace gemmtune
