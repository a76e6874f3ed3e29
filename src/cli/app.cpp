#include "cli/app.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/options.hpp"
#include "core/error.hpp"
#include "version.hpp"

namespace gemmtune {

namespace {
struct TuneArgs {
  std::vector<std::string> shapes;
  std::vector<std::string> dtypes;
  TuneCommandOptions parsed;
};

void add_tune_options(CLI::App& app, TuneArgs& args) {
  TuneCommandOptions& o = args.parsed;
  app.add_option("--shape", args.shapes, "Problem MxNxK or MxNxKxB (batch); repeatable, comma-separated");
  app.add_option("--dtype", args.dtypes, "Input types, comma-separated: f32, f16, bf16 (default f32)");
  app.add_option("--out", o.out, "Tuning table to write (default results/<device>.json); entries for other shapes are kept");
  app.add_option("--device", o.device, "Device index, UUID or name substring (default: discrete > integrated > virtual > cpu)");
  app.add_option("--seed", o.seed, "Seed of the random inputs");
  app.add_option("--samples", o.samples, "Timed runs per finalist")->check(CLI::Range(1, 100000));
  app.add_option("--warmup", o.warmup, "Untimed runs before a finalist's samples")->check(CLI::Range(0, 100000));
  app.add_option("--finalists", o.finalists, "Screened configs that get full samples")->check(CLI::Range(1, 1000));
  app.add_option("--budget", o.budget_s, "Screening time per shape in seconds, shared by its dtypes")->check(CLI::Range(0.0, 1e9));
}

void resolve_tune_args(TuneArgs& args) {
  if (args.shapes.empty()) throw usage_error("--shape", "", "required: give at least one MxNxK");
  for (const std::string& text : args.shapes) {
    for (const Shape& s : parse_shape_list(text)) {
      if (std::find(args.parsed.shapes.begin(), args.parsed.shapes.end(), s) == args.parsed.shapes.end()) args.parsed.shapes.push_back(s);
    }
  }
  if (!args.dtypes.empty()) {
    args.parsed.dtypes.clear();
    for (const std::string& text : args.dtypes) {
      for (DType d : parse_dtype_list(text)) {
        if (std::find(args.parsed.dtypes.begin(), args.parsed.dtypes.end(), d) == args.parsed.dtypes.end()) args.parsed.dtypes.push_back(d);
      }
    }
  }
}

void setup_logging(int verbosity) {
  auto logger = spdlog::stderr_color_mt("gemmtune");
  logger->set_pattern("%^[%l]%$ %v");
  spdlog::set_default_logger(logger);
  spdlog::set_level(verbosity < 0 ? spdlog::level::warn : verbosity == 0 ? spdlog::level::info : spdlog::level::debug);
}
}  // namespace

int run_cli(int argc, char** argv) {
  CLI::App app{"gemmtune: GEMM benchmarking and autotuning on Vulkan compute", "gemmtune"};
  app.set_version_flag("--version", std::string(kVersion) + " (" + kGitHash + ")");
  bool quiet = false, verbose = false;
  app.add_flag("-q,--quiet", quiet, "Only warnings and errors on stderr");
  app.add_flag("-v,--verbose", verbose, "Debug messages on stderr");
  app.require_subcommand(0, 1);

  TuneArgs tune_args;
  add_tune_options(app, tune_args);
  CLI::App* tune = app.add_subcommand("tune", "Sweep, verify and time every config; write the tuning table (the default command)");
  add_tune_options(*tune, tune_args);

  DevicesCommandOptions devices_options;
  CLI::App* devices = app.add_subcommand("devices", "List the Vulkan devices with their limits");
  devices->add_flag("--json", devices_options.json, "Machine-readable output");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    throw Error(ExitCode::usage, e.what());
  }
  setup_logging(quiet ? -1 : verbose ? 1 : 0);

  if (devices->parsed()) return run_devices(devices_options);
  if (!tune->parsed() && tune_args.shapes.empty()) {
    std::cerr << app.help();
    throw usage_error("--shape", "", "required: give at least one MxNxK (or a command: tune, devices)");
  }
  resolve_tune_args(tune_args);
  return run_tune(tune_args.parsed);
}

}  // namespace gemmtune
