#include "cli/app.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <spdlog/sinks/base_sink.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <nlohmann/json.hpp>
#include <cmath>
#include <iostream>
#include <optional>

#include "cli/options.hpp"
#include "run/build_workers.hpp"
#include "core/error.hpp"
#include "kernels/registry.hpp"
#include "cli/isolate.hpp"
#include "cli/multi_device.hpp"
#include "cli/suites.hpp"
#include "cli/tune_output.hpp"
#include "core/files.hpp"
#include "report/journal.hpp"
#include "tuner/tuner.hpp"
#include "version.hpp"

namespace gemmtune {

namespace {
struct TuneArgs {
  std::vector<std::string> shapes, shapes_files, suites;
  std::vector<std::string> dtypes;
  std::vector<std::string> layouts;
  std::string variants, mode, activation, budget, total_budget, shard, devices, screen_warmup, cut;
  std::optional<uint64_t> lda, ldb, ldc, stride_a, stride_b, stride_c;
  TuneCommandOptions parsed;
};

/// The problems and the operation: what every command that opens a device for GEMMs takes (tune, list, bench).
void add_problem_options(CLI::App& app, TuneArgs& args) {
  TuneCommandOptions& o = args.parsed;
  GemmProblem& op = o.operation;
  app.add_option("--shape", args.shapes,
                 "Problem MxNxK or MxNxKxB (batch); repeatable, comma-separated; a dimension may be a range a:b:step "
                 "or a:b:*factor");
  app.add_option("--shapes-file", args.shapes_files,
                 "File of problems, one a line: [name] MxNxK[xB] [dtype] [layout] [cold]; repeatable");
  std::string suites;  // from the built-in list, so the help cannot miss one
  for (const std::string& name : suite_names()) suites += (suites.empty() ? "" : ", ") + name;
  app.add_option("--suite", args.suites, "Built-in shape suite: " + suites + "; repeatable");
  app.add_option("--dtype", args.dtypes,
                 "Input types, comma-separated: f32, f16, bf16, i8, u8, u8i8, and activations:weights in ggml's blocks "
                 "f16:q8_0, f16:q4_0, f32:q8_0, f32:q4_0 (default f32)");
  app.add_option("--layout", args.layouts, "op(A) op(B): nn, nt, tn, tt; comma-separated (default nn)");
  app.add_option("--mode", args.mode, "fast (default) or deterministic (fixed summation order)");
  app.add_option("--alpha", op.alpha, "Scale of the product (default 1; 0 reads neither A nor B)");
  app.add_option("--beta", op.beta, "Scale of the initial C (default 0: C is never read)");
  app.add_option("--lda", args.lda, "Leading dimension of A as stored (default packed)");
  app.add_option("--ldb", args.ldb, "Leading dimension of B as stored (default packed)");
  app.add_option("--ldc", args.ldc, "Leading dimension of C (default packed)");
  app.add_option("--offset-a", op.a.offset, "Elements before A in its buffer");
  app.add_option("--offset-b", op.b.offset, "Elements before B in its buffer");
  app.add_option("--offset-c", op.c.offset, "Elements before C in its buffer");
  app.add_option("--stride-a", args.stride_a, "Elements between batch products of A (0 shares one A)");
  app.add_option("--stride-b", args.stride_b, "Elements between batch products of B (0 shares one B, a weight matrix)");
  app.add_option("--stride-c", args.stride_c, "Elements between batch products of C");
  app.add_flag("--bias", op.epilogue.bias, "Add an f32 bias: element j to column j of every row");
  app.add_option("--zero-a", op.zero_a, "Zero point of 8-bit integer A, subtracted from every element (default 0)");
  app.add_option("--zero-b", op.zero_b, "Zero point of 8-bit integer B, subtracted from every element (default 0)");
  app.add_option("--bias-offset", op.epilogue.bias_offset, "Elements before the bias");
  app.add_option("--activation", args.activation, "Activation after the bias: none, relu, gelu-erf, gelu-tanh");
  app.add_option("--device", o.device,
                 "Device index, UUID or name substring (default: discrete > integrated > virtual > cpu)");
}

/// Which candidates: tune and list.
void add_space_options(CLI::App& app, TuneArgs& args) {
  TuneCommandOptions& o = args.parsed;
  app.add_option("--variants", args.variants,
                 "Variants to sweep, comma-separated: " + variant_names("and") + " (default all but " +
                     baseline_family().name + ")");
  app.add_flag("--native-f32", o.native_only,
               "f32 in native f32 arithmetic only: leave out the kernels that emulate it on the matrix units (" +
                   emulating_variant_names() + ")");
  app.add_option("--space", o.space, "Search-space file (default: the built-in configs/spaces/default.json)");
  app.add_option("--kernels", o.kernels, "Only configs whose name matches this shell glob (\"coopmat_f16_bm128*\")");
}

/// How configs are timed: tune and bench.
void add_timing_options(CLI::App& app, TuneArgs& args) {
  TuneCommandOptions& o = args.parsed;
  app.add_option("--seed", o.seed, "Seed of the random inputs");
  app.add_option("--samples", o.samples, "Timed samples per finalist (tune: at least 3)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--warmup", o.warmup, "Untimed runs before a finalist's samples")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  app.add_flag("--cold", o.cold, "Time with a cold L2: A and B rotate through copies of more than 256 MiB together");
  app.add_flag("--json", o.json, "Print one JSON summary on stdout at the end instead of the per-problem tables");
}

/// The search, its budget and its table: tune only (list runs nothing, bench one config and writes no table).
void add_search_options(CLI::App& app, TuneArgs& args) {
  TuneCommandOptions& o = args.parsed;
  app.add_option("--out", o.out,
                 "Tuning table to write (default gemmtune-<device>.json in the working folder); entries for other "
                 "shapes are kept");
  app.add_option("--finalists", o.finalists, "Screened configs that get full samples")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app.add_option("--screen-warmup", args.screen_warmup,
                 "Device time of back-to-back runs before each screening batch (0.3, 2s; default: from the device's "
                 "idle time before it, GPUs 3x it, 5 ms to 1 s, CPU devices 20 ms)");
  app.add_flag("--host-check", o.host_check,
               "Verify every screened config on the host too (default: on the device, with refusals, finalists and "
               "bench checked on the host)");
  app.add_flag("--idle-between", o.idle_between,
               "GPUs: let the device idle while pipelines are built (default: a small FMA load keeps its clocks up "
               "and pays off the next screening warm-up)");
  app.add_option("--cut", args.cut,
                 "Stop timing a config whose first batch takes this many times the best so far: 0 (never) or 1 to "
                 "100 (default 1.5)");
  app.add_option(
         "--compile-threads", o.compile_threads,
         "Pipelines built at once, for the next candidates (default: hardware threads, at most 8; 1: one at a time)")
      ->check(CLI::Range(1, 64));
  app.add_option("--build-workers", o.build_workers,
                 "Worker processes building the next candidates' pipelines while one is timed (default: hardware "
                 "threads but one, at most 16; CPU devices every thread; 0: every build in this process)")
      ->check(CLI::Range(0, 64));
  app.add_option("--budget", args.budget,
                 "Time per shape (90, 60s, 2m), shared by its dtypes and layouts (default 90 s)");
  app.add_option("--strategy", o.strategy,
                 "Search: adaptive (default: learns from the screen: neighbours of the fastest so far), screen (the "
                 "hand-made order), random (seeded order) or exhaustive (full samples for all)");
  app.add_option("--devices", args.devices,
                 "all, or device indices (0,1): one worker per device, each on its shard; tables merged per device");
  app.add_option("--shard", args.shard,
                 "i/n: tune problems i, i + n, ... of the shape x layout x dtype list (i from 0)");
  app.add_option("--total-budget", args.total_budget, "Time for the whole run (90, 60s, 2m, 1.5h; default: none)");
  app.add_option("--isolate", o.isolate_s,
                 "Run the sweep in a child process; a config running past SECONDS is killed and recorded as timed_out")
      ->check(CLI::Range(0.001, 1e9));
  app.add_flag("--resume", o.resume, "Skip what the journal beside the table holds (same device and tool version)");
}

void add_tune_options(CLI::App& app, TuneArgs& args) {
  add_problem_options(app, args);
  add_space_options(app, args);
  add_timing_options(app, args);
  add_search_options(app, args);
}

template <typename T>
void append_unique(std::vector<T>& out, const std::vector<T>& items) {
  for (const T& item : items) {
    if (std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);
  }
}

void resolve_tune_args(TuneArgs& args) {
  if (args.shapes.empty() && args.shapes_files.empty() && args.suites.empty()) {
    throw usage_error("--shape", "", "required: give at least one MxNxK (or --shapes-file FILE, --suite NAME)");
  }
  for (const std::string& text : args.shapes) append_unique(args.parsed.shapes, parse_shape_requests(text));
  for (const std::string& path : args.shapes_files)
    append_unique(args.parsed.shapes, parse_shapes_file(read_file(path), path));
  for (const std::string& name : args.suites) append_unique(args.parsed.shapes, load_suite(name));
  if (!args.layouts.empty()) {
    args.parsed.layouts.clear();
    for (const std::string& text : args.layouts) append_unique(args.parsed.layouts, parse_layout_list(text));
  }
  GemmProblem& op = args.parsed.operation;
  if (!args.variants.empty()) {
    for (const KernelFamily* f : parse_variant_list(args.variants)) {
      if (args.parsed.native_only && f->numerics != kNativeNumerics)
        throw usage_error(
            "--variants", args.variants,
            f->name + " emulates its input type (numerics " + f->numerics + "), which --native-f32 leaves out");
      args.parsed.variants.push_back(f->name);
    }
  }
  if (!args.mode.empty()) op.mode = parse_mode(args.mode);
  if (!args.activation.empty()) op.epilogue.activation = parse_activation(args.activation);
  op.a.ld = args.lda;
  op.b.ld = args.ldb;
  op.c.ld = args.ldc;
  op.a.batch_stride = args.stride_a;
  op.b.batch_stride = args.stride_b;
  op.c.batch_stride = args.stride_c;
  parse_strategy(args.parsed.strategy, "--strategy");  // refused here, before any work
  if (!args.budget.empty()) {
    args.parsed.budget_s = parse_seconds(args.budget, "--budget");
    // As --total-budget: 0 is no budget, not "the least"; a tiny one still screens and samples one config.
    if (args.parsed.budget_s <= 0.0)
      throw usage_error("--budget", args.budget, "must be more than 0 s (a tiny budget, 0.01, runs one config)");
  }
  if (!args.screen_warmup.empty()) {
    args.parsed.screen_warmup_s = parse_seconds(args.screen_warmup, "--screen-warmup");
    if (args.parsed.screen_warmup_s > 60.0) throw usage_error("--screen-warmup", args.screen_warmup, "at most 60 s");
  }
  if (!args.cut.empty()) {
    char* end = nullptr;
    const double factor = std::strtod(args.cut.c_str(), &end);
    if (end == args.cut.c_str() || *end != '\0' || !(factor == 0.0 || (factor >= 1.0 && factor <= 100.0)))
      throw usage_error("--cut", args.cut, "expected 0 (never cut) or a factor from 1 to 100");
    args.parsed.cut_factor = factor;
  }
  if (!args.shard.empty()) {
    const size_t slash = args.shard.find('/');
    auto number = [&](const std::string& s) {
      if (s.empty() || s.size() > 6 || s.find_first_not_of("0123456789") != std::string::npos) {
        throw usage_error("--shard", args.shard, "expected i/n with 0 <= i < n, such as 0/3");
      }
      return uint32_t(std::stoul(s));
    };
    if (slash == std::string::npos)
      throw usage_error("--shard", args.shard, "expected i/n with 0 <= i < n, such as 0/3");
    args.parsed.shard_index = number(args.shard.substr(0, slash));
    args.parsed.shard_count = number(args.shard.substr(slash + 1));
    if (args.parsed.shard_count == 0 || args.parsed.shard_index >= args.parsed.shard_count) {
      throw usage_error("--shard", args.shard, "expected i/n with 0 <= i < n, such as 0/3");
    }
  }
  if (!args.total_budget.empty()) {
    args.parsed.total_budget_s = parse_seconds(args.total_budget, "--total-budget");
    // 0 is how TuneOptions says "no limit"; a user who writes 0 means the opposite, so it is refused.
    if (args.parsed.total_budget_s <= 0.0)
      throw usage_error("--total-budget", args.total_budget, "must be more than 0 s (leave it out for no limit)");
  }
  if (!std::isfinite(op.alpha)) throw usage_error("--alpha", std::to_string(op.alpha), "must be finite");
  if (!std::isfinite(op.beta)) throw usage_error("--beta", std::to_string(op.beta), "must be finite");
  if (!args.dtypes.empty()) {
    args.parsed.dtypes.clear();
    for (const std::string& text : args.dtypes) append_unique(args.parsed.dtypes, parse_dtype_list(text));
  }
}

/// --log-json: every log record as one JSON object per line on stderr ({"time", "level", "message"}).
class JsonLinesSink : public spdlog::sinks::base_sink<std::mutex> {
 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    const auto seconds = std::chrono::duration<double>(msg.time.time_since_epoch()).count();
    nlohmann::json j = {{"time", seconds},
                        {"level", std::string(spdlog::level::to_string_view(msg.level).data(),
                                              spdlog::level::to_string_view(msg.level).size())},
                        {"message", std::string(msg.payload.data(), msg.payload.size())}};
    std::fprintf(stderr, "%s\n", j.dump().c_str());
  }
  void flush_() override { std::fflush(stderr); }
};

void setup_logging(int verbosity, bool json, bool colorless) {
  std::shared_ptr<spdlog::logger> logger;
  if (json) {
    logger = std::make_shared<spdlog::logger>("gemmtune", std::make_shared<JsonLinesSink>());
  } else {
    // Colour only on a terminal (spdlog's automatic mode), and never with --no-color or NO_COLOR.
    logger = spdlog::stderr_color_mt("gemmtune", colorless ? spdlog::color_mode::never : spdlog::color_mode::automatic);
    logger->set_pattern("%^[%l]%$ %v");
  }
  spdlog::set_default_logger(logger);
  spdlog::set_level(verbosity < 0 ? spdlog::level::warn : verbosity == 0 ? spdlog::level::info : spdlog::level::debug);
}

/// The commands that take none of tune's options.
struct OtherCommands {
  DevicesCommandOptions devices_options;
  PeakCommandOptions peak_options;
  LookupCommandOptions lookup_options;
  ReportCommandOptions report_options;
  ExportCommandOptions export_options;
  MergeCommandOptions merge_options;
  CompareCommandOptions compare_options;
  CLI::App *devices = nullptr, *peak = nullptr, *lookup = nullptr, *reporter = nullptr, *exporter = nullptr,
           *merge = nullptr, *compare = nullptr;
};

void add_other_commands(CLI::App& app, OtherCommands& c) {
  c.devices = app.add_subcommand("devices", "List the Vulkan devices with their limits");
  c.devices->add_flag("--json", c.devices_options.json, "Machine-readable output");

  c.peak = app.add_subcommand("peak", "Measure the device's f32 FMA rate and copy bandwidth; store them in the table");
  c.peak->add_flag("--json", c.peak_options.json, "Machine-readable output");
  c.peak->add_option(
      "--out", c.peak_options.out,
      "Table whose device section receives the ceilings (default gemmtune-<device>.json in the working folder)");
  c.peak->add_option("--device", c.peak_options.device, "Device index, UUID or name substring");
  c.peak->add_option("--samples", c.peak_options.samples, "Timed batches per measurement (the best is kept)")
      ->check(CLI::Range(1, 1000));
  c.peak
      ->add_option(
          "--copy-bytes", c.peak_options.copy_bytes,
          "Bytes each copy buffer holds, capped by the device's limits (default 268435456; a weight matrix's size "
          "gives the rate one dispatch of that size reaches)")
      ->check(CLI::Range(uint64_t(16), uint64_t(1) << 40));
  c.peak
      ->add_option("--cached-read-bytes", c.peak_options.read_bytes,
                   "Also measure how fast workgroups read a buffer of about this many bytes that stays in the cache "
                   "(1024 workgroups, each reading all of it; rounded to 32 KiB; off by default)")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 40));
  c.peak->add_flag("--matrix-sweep", c.peak_options.matrix_sweep,
                   "Sweep the matrix units: 1 to 16 accumulators a subgroup, workgroups of 32 to 256, f16 and bf16 "
                   "with f32 sums, f16 with f16 sums; the best f16 -> f32 is the table's matrix-unit ceiling");

  c.lookup = app.add_subcommand("lookup", "The config a table gives for a problem, and the rule that chose it");
  c.lookup->add_option("TABLE", c.lookup_options.table, "Tuning table")->required();
  c.lookup->add_option("--shape", c.lookup_options.shape, "MxNxK or MxNxKxB (batch)")->required();
  c.lookup->add_option("--dtype", c.lookup_options.dtype,
                       "f32 (default), f16, bf16, i8, u8, u8i8, f16:q8_0, f16:q4_0, f32:q8_0 or f32:q4_0");
  c.lookup->add_option("--layout", c.lookup_options.layout, "nn (default), nt, tn or tt");
  c.lookup->add_option("--device", c.lookup_options.device,
                       "The device the table must be of (default: the best device)");
  c.lookup->add_flag("--any-device", c.lookup_options.any_device, "Use a table of another device (no Vulkan needed)");
  c.lookup->add_flag("--json", c.lookup_options.json, "Machine-readable output");

  c.reporter =
      app.add_subcommand("report", "One self-contained HTML page: charts per dtype, a roofline and a sortable table");
  c.reporter->add_option("TABLE", c.report_options.tables, "Tuning tables")->required();
  c.reporter->add_option("-o,--out", c.report_options.out, "The HTML file to write")->required();
  c.reporter->add_option(
      "--anchor", c.report_options.anchors,
      "[DEVICE=]FILE: another library's times to draw beside gemmtune's (JSON lines of "
      ".gpu-kit/cublas_anchor.py or ggml_anchor.sh), on the tables whose device name contains DEVICE "
      "(all without it); repeatable");
  c.exporter = app.add_subcommand(
      "export",
      "A C++17 header with a table's entries and the lookup rule, or a kit with the tuned kernels themselves");
  c.exporter->add_option("TABLE", c.export_options.table, "Tuning table")->required();
  c.exporter->add_option("--format", c.export_options.format,
                         "cpp (a header) or kit (a folder: SPIR-V, constants, lookup, dispatch rules; needs --out)");
  c.exporter->add_option("--namespace", c.export_options.ns, "Namespace of the header (default gemmtune_tuned)");
  c.exporter->add_option("--out", c.export_options.out,
                         "Write the header to this file (default stdout); the kit into this folder");

  c.merge = app.add_subcommand("merge", "Join tables of one device; the faster verified entry stays per key (no GPU)");
  c.merge->add_option("TABLES", c.merge_options.inputs, "Tables to join")->required();
  c.merge->add_option("-o,--out", c.merge_options.out, "The joined table")->required();

  c.compare =
      app.add_subcommand("compare", "CI regression check: compare a new table with a baseline (no GPU unless --rerun)");
  c.compare->add_option("BASE", c.compare_options.base, "Baseline table")->required();
  c.compare->add_option("NEW", c.compare_options.fresh, "New table")->required();
  c.compare->add_option("--threshold", c.compare_options.threshold,
                        "Slowdown that counts as a regression, if the samples' rank test says it is real (default 5%)");
  c.compare->add_option("--format", c.compare_options.format, "text (default), md, json or junit");
  c.compare->add_option("--out", c.compare_options.out, "Write the report to this file (default stdout)");
  c.compare->add_option("--also", c.compare_options.also,
                        "FORMAT=FILE: also write the same comparison as md, json, junit or text to FILE (repeatable; "
                        "one --rerun serves every report)");
  c.compare->add_flag("--allow-device-mismatch", c.compare_options.allow_device_mismatch,
                      "Compare tables of different devices");
  c.compare->add_flag("--rerun", c.compare_options.rerun,
                      "Re-measure each regression's two configs on this device, interleaved, before failing");
  c.compare->add_option("--device", c.compare_options.device, "--rerun: device index, UUID or name substring");
  c.compare->add_option("--samples", c.compare_options.samples, "--rerun: timed samples of each config")
      ->check(CLI::Range(4, 100000))
      ->capture_default_str();
}

/// Edits (insertions, deletions, substitutions) from a to b.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

/// What CLI11 lets through and the user did not mean: an empty value (`--budget ""`), taken as left out, would run
/// the default nobody asked for; an unsigned option's `-1` wraps to 2^64 - 1 and a value past 2^64 - 1
/// saturates to it. Each is refused with the option and the value as written. Flags take no value.
void check_option_values(const CLI::App& app) {
  std::vector<const CLI::App*> apps{&app};
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* a) { return a->parsed(); })) apps.push_back(sub);
  for (const CLI::App* a : apps) {
    for (const CLI::Option* option : a->get_options()) {
      if (option->count() == 0 || option->get_expected_max() == 0) continue;
      const bool unsigned_value = option->get_type_name().rfind("UINT", 0) == 0;
      for (const std::string& value : option->results()) {
        if (value.empty()) {
          throw usage_error(
              option->get_name(), value,
              option->nonpositional() ? "an empty value (leave the option out for its default)" : "an empty value");
        }
        if (!unsigned_value) continue;
        uint64_t parsed = 0;
        const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
        if (value[0] == '-' || value[0] == '+') {
          throw usage_error(option->get_name(), value, "a sign where an unsigned integer is expected");
        }
        // CLI11 reads a leading zero as octal (010 is 8): the user meant decimal or made a typo.
        if (value.size() > 1 && value[0] == '0' && error == std::errc() && end == value.data() + value.size())
          throw usage_error(option->get_name(), value, "a leading zero (write the decimal value without it)");
        if (error == std::errc::result_out_of_range)
          throw usage_error(option->get_name(), value, "past the largest value, 18446744073709551615");
        if (error != std::errc() || end != value.data() + value.size())
          throw usage_error(option->get_name(), value, "not an unsigned decimal integer");
      }
    }
  }
}

/// " (did you mean --budget?)" for the first unknown --option in CLI11's message that is within two edits of an option
/// of the command line (any command's), or "".
std::string nearest_option_hint(const CLI::App& app, const std::string& message) {
  std::vector<std::string> known;
  std::vector<const CLI::App*> apps{&app};
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) apps.push_back(sub);
  for (const CLI::App* a : apps)
    for (const CLI::Option* option : a->get_options())
      for (const std::string& name : option->get_lnames()) known.push_back("--" + name);
  for (size_t at = message.find("--"); at != std::string::npos; at = message.find("--", at + 2)) {
    const std::string given = message.substr(at, message.find_first_of(" ,=", at) - at);
    std::string best;
    size_t best_edits = 3;
    for (const std::string& name : known) {
      const size_t edits = edit_distance(given, name);
      if (edits > 0 && edits < best_edits) best = name, best_edits = edits;
    }
    if (!best.empty()) return " (did you mean " + best + "?)";
  }
  return "";
}

/// The status of the other command the line named, or nullopt for none.
std::optional<int> run_other_command(const OtherCommands& c) {
  if (c.devices->parsed()) return run_devices(c.devices_options);
  if (c.compare->parsed()) return run_compare(c.compare_options);
  if (c.merge->parsed()) return run_merge(c.merge_options);
  if (c.lookup->parsed()) return run_lookup(c.lookup_options);
  if (c.exporter->parsed()) return run_export(c.export_options);
  if (c.reporter->parsed()) return run_report(c.report_options);
  if (c.peak->parsed()) return run_peak(c.peak_options);
  return std::nullopt;
}

/// The command line `args` without `option` and its value (`--option V` or `--option=V`; args[0] is kept).
std::vector<std::string> without_option(const std::vector<std::string>& args, const std::string& option) {
  std::vector<std::string> out{args.at(0)};
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == option) {
      ++i;
    } else if (args[i].rfind(option + "=", 0) != 0) {
      out.push_back(args[i]);
    }
  }
  return out;
}

/// tune: on several devices (a worker process each, merged), watched in a child process (--isolate), or here.
int run_tune_command(TuneArgs& tune_args, int argc, char** argv) {
  const std::vector<std::string> line(argv, argv + argc);
  if (!tune_args.devices.empty()) {
    const TuneCommandOptions& o = tune_args.parsed;
    const std::string& spec = tune_args.devices;
    if (!o.device.empty()) throw usage_error("--devices", spec, "cannot be combined with --device");
    if (!tune_args.shard.empty())
      throw usage_error("--devices", spec, "cannot be combined with --shard (each device's worker takes a shard)");
    const std::vector<uint32_t> chosen = devices_to_use(spec);
    if (chosen.size() == 1) {
      tune_args.parsed.device = std::to_string(chosen[0]);  // one device: an ordinary run on it
    } else {
      if (o.json)
        throw usage_error("--devices", spec, "--json takes one device (each worker would print its own summary)");
      if (!o.out.empty()) preflight_writable(o.out, "--out");
      // Each worker's own --out is its part table: the user's --out goes to the merge only.
      return run_on_devices(without_option(without_option(line, "--devices"), "--out"), chosen, o.out);
    }
  }
  if (tune_args.parsed.isolate_s > 0) {
    // The parent only watches: the child is this command line without --isolate.
    if (tune_args.parsed.out.empty())
      throw usage_error("--isolate", std::to_string(tune_args.parsed.isolate_s),
                        "needs --out (the journal beside the table is what the watcher reads)");
    preflight_writable(tune_args.parsed.out, "--out");
    return run_isolated(without_option(line, "--isolate"), tune_args.parsed.isolate_s,
                        journal_path_for(tune_args.parsed.out));
  }
  return run_tune(tune_args.parsed);
}

/// The options before any command: logging, colour, the pipeline cache.
struct GlobalFlags {
  bool quiet = false, verbose = false, log_json = false, no_color = false, no_pipeline_cache = false;
};

void add_global_flags(CLI::App& app, GlobalFlags& g) {
  app.set_version_flag("--version", std::string(kVersion) + " (" + kGitHash + ")");
  app.add_flag("-q,--quiet", g.quiet, "Only warnings and errors on stderr");
  app.add_flag("-v,--verbose", g.verbose, "Debug messages on stderr");
  app.add_flag("--log-json", g.log_json, "Log records as JSON lines on stderr (errors stay one plain line)");
  app.add_flag("--no-color", g.no_color,
               "No colour on stdout or stderr (also when NO_COLOR is set, or not a terminal)");
  app.add_flag("--no-pipeline-cache", g.no_pipeline_cache,
               "Neither read nor write the persistent pipeline cache (also when GEMMTUNE_NO_PIPELINE_CACHE is set)");
}
}  // namespace

int run_cli(int argc, char** argv) {
  CLI::App app{"gemmtune: GEMM benchmarking and autotuning on Vulkan compute", "gemmtune"};
  GlobalFlags g;
  add_global_flags(app, g);
  app.require_subcommand(0, 1);

  TuneArgs tune_args;
  add_tune_options(app, tune_args);
  CLI::App* tune =
      app.add_subcommand("tune", "Sweep, verify and time every config; write the tuning table (the default command)");
  add_tune_options(*tune, tune_args);

  OtherCommands other;
  add_other_commands(app, other);

  TuneArgs list_args;
  bool list_why = false;
  CLI::App* list = app.add_subcommand("list", "List the candidates of each problem without running anything");
  add_problem_options(*list, list_args);
  add_space_options(*list, list_args);
  list->add_flag("--why", list_why, "Also list the pruned configs and inapplicable variants with their reasons");
  bool list_json = false;
  list->add_flag("--json", list_json,
                 "One JSON object on stdout: every problem's candidates, pruned configs and inapplicable variants");

  TuneArgs bench_args;
  std::string bench_config;
  CLI::App* bench =
      app.add_subcommand("bench", "Verify and time one config (as printed by tune) without writing a table");
  add_problem_options(*bench, bench_args);
  add_timing_options(*bench, bench_args);
  bench->add_option("--config", bench_config, "Config name, e.g. tiled_f32_bm64_bn128_bk16_tm8_tn4")->required();

  // A tuner's build worker (run/build_workers.hpp): requests on standard input, which is a socket to the tuner.
  std::string worker_device;
  CLI::App* build_worker = app.add_subcommand("build-worker", "Builds pipelines for a tuner (started by tune)");
  build_worker->group("");
  build_worker->add_option("--device", worker_device, "The device's UUID")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    throw Error(ExitCode::usage, e.what() + nearest_option_hint(app, e.what()));
  }
  check_option_values(app);
  const char* no_color_env = std::getenv("NO_COLOR");
  const bool colorless = g.no_color || (no_color_env != nullptr && *no_color_env != '\0');
  setup_logging(g.quiet ? -1 : g.verbose ? 1 : 0, g.log_json, colorless);
  tune_args.parsed.live_progress = tune_args.parsed.live_progress && !g.quiet && !g.log_json;
  tune_args.parsed.color = use_color(g.no_color, tune_args.parsed.json);

  if (g.no_pipeline_cache) ::setenv("GEMMTUNE_NO_PIPELINE_CACHE", "1", 1);  // read by every device this run opens
  if (build_worker->parsed()) return serve_build_requests(worker_device, 0);
  if (std::optional<int> status = run_other_command(other)) return *status;
  if (bench->parsed()) {
    resolve_tune_args(bench_args);
    return run_bench(bench_args.parsed, bench_config);
  }
  if (list->parsed()) {
    resolve_tune_args(list_args);
    return run_list(list_args.parsed, list_why, list_json);
  }
  if (!tune->parsed() && tune_args.shapes.empty() && tune_args.shapes_files.empty() && tune_args.suites.empty()) {
    std::cerr << app.help();
    throw usage_error("--shape", "",
                      "required: give at least one MxNxK (or a command: tune, list, bench, devices, peak)");
  }
  resolve_tune_args(tune_args);
  // The finals sample every finalist in 3 rounds or more (the noise band and ties need them): say so, never raise it.
  if (tune_args.parsed.samples < 3) {
    throw usage_error("--samples", std::to_string(tune_args.parsed.samples),
                      "tune takes at least 3 (bench takes any count)");
  }
  return run_tune_command(tune_args, argc, argv);
}

}  // namespace gemmtune
