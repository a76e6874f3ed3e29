// Options of each command, as plain structs; only cli/app.cpp knows CLI11.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/problem.hpp"
#include "core/shape_request.hpp"

namespace gemmtune {

struct TuneCommandOptions {
  std::vector<ShapeRequest> shapes;  ///< --shape, --shapes-file and --suite, in that order, duplicates removed
  std::vector<DType> dtypes{DType::f32};
  std::vector<Layout> layouts{Layout{}};
  std::vector<std::string> variants;  ///< empty: every variant
  /// --native-f32: only families whose numerics are the input type's own (KernelFamily::numerics), so no f32
  /// problem is served by an emulation on the matrix units.
  bool native_only = false;
  /// The operation every shape is tuned for (dtype, layout and shape come from the lists above).
  GemmProblem operation;
  std::string out;     ///< empty: gemmtune-<device>.json in the working folder
  std::string device;  ///< index, UUID or name substring; empty: best device
  uint64_t seed = 1;
  int samples = 10;
  int warmup = 2;
  double screen_warmup_s =
      -1.0;  ///< --screen-warmup: device time of runs before each screening batch; < 0: from the idle time
  int finalists = 3;
  bool idle_between = false;     ///< --idle-between: no clock keeper while pipelines build (RunOptions::keep_clocks)
  bool host_check = false;       ///< --host-check: screening verifies on the host (RunOptions::device_check off)
  double cut_factor = 1.5;       ///< --cut: TuneOptions::cut_factor
  unsigned compile_threads = 0;  ///< pipelines built at once; 0: default_compile_threads()
  int build_workers = -1;        ///< --build-workers: worker processes building ahead; < 0: default_build_workers()
  double budget_s = 90.0;        ///< per shape, shared by its dtypes
  std::string kernels;           ///< shell glob over config names
  bool cold = false;             ///< time with cold L2: inputs rotated through more than kColdBytes
  std::string strategy = "adaptive";  ///< adaptive, screen, random or exhaustive
  double total_budget_s = 0;          ///< for the whole run; 0: none
  bool resume = false;                ///< skip what the journal beside the table already holds
  std::string space;                  ///< search-space file; empty: the built-in configs/spaces/default.json
  double isolate_s = 0;               ///< > 0: run in a watched child process, configs killed past this many seconds
  uint32_t shard_index = 0, shard_count = 1;  ///< --shard i/n: this run takes problems i, i + n, ...
  bool json = false;   ///< --json: one JSON summary on stdout at the end instead of the per-problem tables
  bool color = false;  ///< colour the tables (a terminal, no --no-color, no NO_COLOR)
  bool live_progress = ::isatty(2) != 0;  ///< a live status line on stderr (a terminal, not --quiet/--log-json)
};

/// Bytes of input copies a cold run rotates through: several times the largest L2 in use (the H200 has 60 MB).
constexpr uint64_t kColdBytes = 256ull << 20;

struct DevicesCommandOptions {
  bool json = false;
};

struct PeakCommandOptions {
  bool json = false;
  std::string out;  ///< table to store the ceilings in; empty: results/<device>.json
  std::string device;
  int samples = 7;
  uint64_t copy_bytes = 256ull << 20;  ///< each copy buffer's size (capped by the device's limits)
  uint64_t read_bytes = 0;             ///< --cached-read-bytes: > 0 measures the cached-read rate at this size
  bool matrix_sweep = false;           ///< --matrix-sweep: the matrix units at every accumulator count and type
};

struct CompareCommandOptions {
  std::string base, fresh;  ///< the baseline table and the new one
  std::string threshold = "5%";
  std::string format = "text";    ///< text, md, json, junit
  std::string out;                ///< empty: stdout
  std::vector<std::string> also;  ///< --also FORMAT=FILE: the same comparison in more formats (one --rerun serves all)
  bool allow_device_mismatch = false;
  bool rerun = false;  ///< re-measure suspected regressions on this device before failing
  std::string device;  ///< --rerun's device (default: the first)
  int samples = 10;    ///< --rerun: samples of each config, taken in turns
};

struct LookupCommandOptions {
  std::string table, shape, dtype = "f32", layout = "nn", device;
  bool any_device = false;
  bool json = false;
};

struct ExportCommandOptions {
  std::string table, format = "cpp", ns = "gemmtune_tuned", out;
};

struct ReportCommandOptions {
  std::vector<std::string> tables;
  std::vector<std::string> anchors;  ///< --anchor: cublas_anchor.py or ggml_anchor.sh output
  std::string out;
};

struct MergeCommandOptions {
  std::vector<std::string> inputs;
  std::string out;
};

int run_tune(const TuneCommandOptions& options);
/// `gemmtune lookup TABLE --shape ...`: the config to use and the rule that chose it.
int run_lookup(const LookupCommandOptions& options);
/// `gemmtune export TABLE --format cpp`: a C++17 header with the entries and the lookup rule; `--format kit --out
/// DIR`: the kit (report/export_kit.hpp).
int run_export(const ExportCommandOptions& options);
/// `gemmtune report TABLE... -o report.html`: one self-contained HTML page with charts. No GPU.
int run_report(const ReportCommandOptions& options);
/// `gemmtune merge A B ... -o OUT`: tables of one device joined; the faster verified entry stays per key.
int run_merge(const MergeCommandOptions& options);
/// `gemmtune compare BASE NEW`: 0 no regression, 1 regression, 2 bad input, 3 device mismatch.
int run_compare(const CompareCommandOptions& options);
/// `gemmtune list`: the candidates of every problem, and with `why` the pruned configs and inapplicable variants
/// with their reasons; nothing is built or run.
int run_list(const TuneCommandOptions& options, bool why, bool json);
/// `gemmtune bench --config NAME`: verifies and times one config on each requested shape (its dtype comes from
/// the name); writes no table.
int run_bench(const TuneCommandOptions& options, const std::string& config_name);
int run_peak(const PeakCommandOptions& options);
int run_devices(const DevicesCommandOptions& options);

}  // namespace gemmtune
