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
      for (const PrunedConfig& pc : space.pruned) {
        if (pc.name == config_name) {
          throw Error(ExitCode::unsupported,
                      "--config: '" + config_name + "': pruned on " + device.info().name + ": " + pc.reason);
        }
      }
      RunOptions run;
      run.seed = o.seed;
      run.cold_bytes = o.cold ? kColdBytes : 0;
      GemmRunner runner(device, problem, run);
      const Measurement m = runner.evaluate(*family, named.config, o.warmup, o.samples);
      if (m.disposition != Disposition::passed) worst = ExitCode::unverified;
      if (o.json) {
        nlohmann::json statistics = nlohmann::json::object();  // the driver's, where it lists them (registers)
        for (const auto& [name, value] : m.pipeline_statistics) statistics[name] = value;
        results.push_back({{"m", problem.shape.m},
                           {"n", problem.shape.n},
                           {"k", problem.shape.k},
                           {"batch", problem.shape.batch},
                           {"dtype", std::string(dtype_name(problem.dtype))},
                           {"layout", problem.layout.name()},
                           {"cold", o.cold},
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
                           {"pipeline_statistics", statistics}});
        continue;
      }
      if (m.disposition != Disposition::passed) {
        std::printf("%s %s: %s: %s\n", describe(problem).c_str(), config_name.c_str(), disposition_name(m.disposition),
                    m.detail.c_str());
        continue;
      }
      std::printf("%s%s %s: median %.2f us, min %.2f us, %.2f %s, %zux%u samples, error %.1e / %.0e\n",
                  describe(problem).c_str(), o.cold ? " cold" : "", config_name.c_str(), m.median_us, m.min_us,
                  m.gflops, is_integer(problem.dtype) ? "GOP/s" : "GFLOP/s", m.samples_us.size(), m.runs_per_sample,
                  m.error.error, m.error.bound);
    }
  }
  if (o.json) std::printf("%s\n", nlohmann::json{{"results", results}}.dump(2).c_str());
  return static_cast<int>(worst);
}

}  // namespace gemmtune
