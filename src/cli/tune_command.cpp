// `gemmtune tune`: for each shape and dtype, sweep, verify and time; keep the table on disk current after every
// entry so nothing measured is lost. (`list` and `bench` take the same options: list_command.cpp, bench_command.cpp.)
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "cli/device_table.hpp"
#include "cli/live_line.hpp"
#include "cli/named_config.hpp"
#include "cli/options.hpp"
#include "cli/requested.hpp"
#include "cli/tune_output.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "kernels/registry.hpp"
#include "kernels/space_file.hpp"
#include "report/journal.hpp"
#include "report/lookup.hpp"
#include "report/table.hpp"
#include "run/build_workers.hpp"
#include "tuner/tuner.hpp"
#include "version.hpp"
#include "vk/check.hpp"
#include "vk/device.hpp"
#include "vk/instance.hpp"

namespace gemmtune {

TuningTable load_table_for_device(const std::string& path, const DeviceIdentity& identity, bool check_device) {
  preflight_writable(path, "--out");
  TuningTable table;
  if (std::filesystem::exists(path)) table = load_table(path);  // a malformed table is refused, never overwritten
  if (check_device && (!table.entries.empty() || table.peak) && !(table.device == identity)) {
    throw usage_error("--out", path,
                      "holds a table of another device or driver (" + table.device.name + ", driver " +
                          table.device.driver_version + "); choose another --out");
  }
  return table;
}

void adopt_device(TuningTable& t, const vk::DeviceInfo& info, const std::string& path) {
  if ((!t.entries.empty() || t.peak) && !(t.device == device_identity(info))) {
    throw usage_error("--out", path,
                      "now holds a table of another device or driver (" + t.device.name + "); choose another --out");
  }
  t.tool = {"gemmtune", kVersion, kGitHash};
  t.device = device_identity(info);
  t.timing = info.timestamps() ? "timestamps" : "host";
}

std::string kernel_status(const ConfigResult& result, const std::string& dtype) {
  if (result.kernel_hash.empty()) return "unrecorded";
  const KernelFamily* family = find_family(result.variant);
  return family && family->kernel_hash(parse_dtype(dtype, "table dtype")) == result.kernel_hash ? "current" : "stale";
}

std::optional<ShapeNeeds> family_shape_needs(const ConfigResult& result, const std::string& dtype,
                                             const std::string& layout) {
  return tuned_shape_needs(result.variant, result.params, parse_dtype(dtype, "table dtype"),
                           parse_layout(layout, "table layout"));
}

DeviceIdentity device_identity(const vk::DeviceInfo& d) {
  return {d.name,
          d.vendor_id,
          d.device_id,
          d.driver_version,
          d.driver_name,
          d.driver_id,
          vk::api_version_string(d.api_version),
          vk::device_type_name(d.type),
          vk::uuid_string(d.pipeline_cache_uuid)};
}

namespace {
ConfigResult config_result(const EvaluatedConfig& e, DType dtype) {
  return summary_of(e.measurement, e.family->name, e.name, e.config.values, e.family->kernel_hash(dtype),
                    e.family->numerics);
}

/// The table key of a problem: everything the caller's operation is made of.
TableKey table_key(const GemmProblem& p, bool cold) {
  TableKey key;
  key.cold = cold;
  key.m = p.shape.m;
  key.n = p.shape.n;
  key.k = p.shape.k;
  key.batch = p.shape.batch;
  key.dtype = std::string(dtype_name(p.dtype));
  key.layout = p.layout.name();
  const ResolvedGemm l = resolve(p);
  key.ld = {l.a.ld, l.b.ld, l.c.ld};
  key.offset = {l.a.offset, l.b.offset, l.c.offset};
  key.batch_stride = {l.a.stride, l.b.stride, l.c.stride};
  key.alpha = p.alpha;
  key.beta = p.beta;
  key.bias = p.epilogue.bias;
  key.bias_offset = p.epilogue.bias_offset;
  key.activation = std::string(activation_name(p.epilogue.activation));
  key.mode = std::string(mode_name(p.mode));
  return key;
}

TableEntry keyed_entry(const GemmProblem& p, bool cold) {
  TableEntry e;
  static_cast<TableKey&>(e) = table_key(p, cold);
  return e;
}

TableEntry table_entry(const TuneResult& r, bool cold) {
  TableEntry e = keyed_entry(r.problem, cold);
  for (const NotApplicable& n : r.not_applicable) e.not_applicable.push_back({n.variant, n.reason});
  if (const EvaluatedConfig* best = r.best()) e.best = config_result(*best, r.problem.dtype);
  if (const EvaluatedConfig* second = r.runner_up()) e.runner_up = config_result(*second, r.problem.dtype);
  e.candidates = {r.evaluated.size(), r.failed(), r.pruned.size(), r.skipped, r.configs_per_s()};
  e.budget_exhausted = r.budget_exhausted;
  e.interrupted = r.interrupted;
  e.strategy = strategy_name(r.strategy);
  e.tie = r.tie;
  e.margin = r.margin;
  e.noise_band = r.noise_band;
  e.tune_seconds = std::round(r.elapsed_s * 1000.0) / 1000.0;
  if (r.baseline && r.baseline->measurement.disposition == Disposition::passed)
    e.baseline_us = r.baseline->measurement.median_us;
  // Per variant, its fastest finalist (full samples) or else its fastest screened config (one sample).
  std::map<std::string, bool> from_finals;
  for (const EvaluatedConfig& c : r.evaluated) {
    if (c.measurement.disposition != Disposition::passed) continue;
    const VariantBest candidate{c.family->name, c.name, c.measurement.median_us, c.measurement.gflops};
    auto same = std::find_if(e.variant_best.begin(), e.variant_best.end(),
                             [&](const VariantBest& v) { return v.variant == c.family->name; });
    if (same == e.variant_best.end()) {
      e.variant_best.push_back(candidate);
    } else if (c.finalist == from_finals[c.family->name] ? c.measurement.median_us < same->median_us : c.finalist) {
      *same = candidate;
    } else {
      continue;
    }
    from_finals[c.family->name] = c.finalist;
  }
  std::sort(e.variant_best.begin(), e.variant_best.end(),
            [](const VariantBest& a, const VariantBest& b) { return a.median_us < b.median_us; });
  return e;
}

}  // namespace

namespace {
/// Counts a problem done when the loop body leaves it, however it leaves.
struct ProblemCountdown {
  size_t& left;
  ~ProblemCountdown() { --left; }
};

std::atomic<bool> g_stop{false};
extern "C" void request_stop(int) { g_stop.store(true); }

/// SIGINT and SIGTERM ask the sweep to stop after the config in hand; the previous handlers come back after.
class StopOnSignals {
 public:
  StopOnSignals() {
    g_stop.store(false);
    struct sigaction sa {};
    sa.sa_handler = request_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopOnSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;

 private:
  struct sigaction old_int_ {
  }, old_term_{};
};

}  // namespace

namespace {
constexpr int kMaxDeviceLosses = 16;  // losses and timeouts per run: a device that keeps failing ends it (exit 4)

/// One `gemmtune tune` run: the table and journal it writes, its device, and the problems it tunes one at a time
/// (each recorded as it finishes; a device loss retries the problem on a new device).
class TuningRun {
 public:
  explicit TuningRun(const TuneCommandOptions& o) : o_(o) {}
  int run();

 private:
  enum class Outcome { done, retry };
  void open_device();
  /// The build workers of the device in hand (--build-workers), for every problem's search.
  void start_build_workers();
  void open_table();
  void open_journal();
  void configure_search();
  void count_problems();
  Outcome tune_problem_once(const GemmProblem& problem, double& shape_budget, size_t shape_size, size_t index_in_shape);
  void record(const TuneResult& result, const std::string& key);
  bool finished_before(const std::string& key) const;
  bool ours(const JournalRecord& r, const std::string& key) const {
    return r.device == device_key_ && r.tool == tool_key_ && r.problem == key;
  }
  void record_entry(const TableEntry& entry);
  int finish(ExitCode code);
  /// A fault that ends the run, said with the problem and config it happened in.
  [[noreturn]] void end_run(const Error& e, const GemmProblem& problem) const;
  /// After the config in hand lost the device, or its work outlived the fence limit: it is recorded (and never run
  /// again) and the device recreated (a timed-out queue cannot be trusted); the problem resumes from the journal.
  void recover(const vk::VulkanError& e, const GemmProblem& problem, const std::string& key);

  const TuneCommandOptions& o_;
  std::vector<KernelFamily> owned_families_;
  std::vector<const KernelFamily*> families_;
  std::optional<vk::Instance> instance_;
  std::optional<vk::Device> device_;           // recreated after a device loss
  std::optional<BuildWorkers> build_workers_;  // of device_: made and ended with it
  vk::DeviceInfo info_;
  std::string out_;
  TuningTable table_;
  std::vector<JournalRecord> prior_;
  /// The naive kernel's measured rate by dtype, from the baseline of the largest problem so far (FLOPs, GFLOP/s):
  /// TuneOptions::naive_gflops for the next problems of the dtype.
  std::map<std::string, std::pair<double, double>> naive_rates_;
  std::optional<AppendOnlyFile> journal_;
  std::string device_key_, tool_key_;
  std::optional<StopOnSignals> stop_on_signals_;
  TuneOptions tune_;
  ExitCode worst_ = ExitCode::ok;
  size_t problems_left_ = 0, problem_count_ = 0, problem_index_ = 0;
  std::string shape_name_;      ///< the shapes-file or suite line's name of the problems in hand, or empty
  std::set<std::string> said_;  // not-applicable lines printed so far (once a run)
  int device_losses_ = 0;
  std::chrono::steady_clock::time_point run_start_ = std::chrono::steady_clock::now();
  nlohmann::ordered_json summaries_ = nlohmann::ordered_json::array();  // --json
  std::string in_hand_;                                                 // the config being measured, for a device loss
};

void TuningRun::open_device() {
  instance_.emplace(vk::validation_requested_by_env());
  device_.emplace(*instance_, instance_->select(o_.device));
  info_ = device_->info();
  start_build_workers();
  spdlog::info("device {}: {} ({}, driver {}, Vulkan {})", info_.index, info_.name, vk::device_type_name(info_.type),
               info_.driver_version, vk::api_version_string(info_.api_version));
}

void TuningRun::open_table() {
  out_ = o_.out.empty() ? "gemmtune-" + vk::device_slug(info_.name) + ".json" : o_.out;  // in the working folder
  table_ = load_table_for_device(out_, device_identity(info_), true);
  size_t stale = 0;
  for (const TableEntry& e : table_.entries) stale += e.best && kernel_status(*e.best, e.dtype) == "stale";
  if (stale)
    spdlog::warn("{}: {} entries were tuned with kernels that have changed since (stale): tune them again", out_,
                 stale);
  adopt_device(table_, info_, out_);
  if (!info_.timestamps()) spdlog::warn("the compute queue has no timestamps: timing with the host clock");
}

// The journal beside the table: every measured config on disk as it is measured, appended across runs (runs
// tuning into one table at once share it; whole lines never interleave). --resume reads it first.
void TuningRun::open_journal() {
  const std::string path = journal_path_for(out_);
  if (o_.resume && std::filesystem::exists(path)) {
    size_t torn = 0;
    prior_ = read_journal(path, &torn);
    if (torn) spdlog::info("{}: skipped a torn last line (a kill while writing)", path);
  }
  journal_.emplace(path, false);
  device_key_ = info_.name + " driver " + info_.driver_version + " cache " + vk::uuid_string(info_.pipeline_cache_uuid);
  tool_key_ = std::string(kVersion) + " " + kGitHash;
  size_t foreign = 0;
  for (const JournalRecord& r : prior_) foreign += r.device != device_key_ || r.tool != tool_key_;
  if (foreign) spdlog::warn("{}: {} records of another device or tool version are not used", path, foreign);
}

void TuningRun::configure_search() {
  tune_.strategy = parse_strategy(o_.strategy, "--strategy");
  tune_.stop = &g_stop;
  tune_.warmup = o_.warmup;
  tune_.samples = o_.samples;
  tune_.finalists = o_.finalists;
  if (o_.compile_threads > 0) tune_.compile_threads = o_.compile_threads;
  tune_.run.seed = o_.seed;
  tune_.run.cold_bytes = o_.cold ? kColdBytes : 0;
  if (o_.screen_warmup_s >= 0.0) tune_.run.screen_warmup_ns = o_.screen_warmup_s * 1e9;
  tune_.run.device_check = !o_.host_check;
  tune_.run.keep_clocks = !o_.idle_between;
  tune_.cut_factor = o_.cut_factor;
  tune_.kernels = o_.kernels;
  families_ = pointers(owned_families_);
}

// --shard i/n: problems are numbered over the whole request; this run takes those with number % n == i.
void TuningRun::count_problems() {
  size_t numbered = 0;
  for (const ShapeRequest& shape : o_.shapes) {
    for (size_t k = 0; k < problems_of(o_, shape).size(); ++k)
      problems_left_ += numbered++ % o_.shard_count == o_.shard_index;
  }
  problem_count_ = problems_left_;
}

// Each entry goes in by a locked read-modify-write of the file as it is then, so runs tuning into one table at
// once (shards on one host) all keep their entries.
void TuningRun::record_entry(const TableEntry& entry) {
  table_ = update_table(out_, [&](TuningTable& t) {
    adopt_device(t, info_, out_);
    t.created = utc_now();
    t.upsert(entry);
  });
}

bool TuningRun::finished_before(const std::string& key) const {
  return std::any_of(prior_.begin(), prior_.end(),
                     [&](const JournalRecord& r) { return ours(r, key) && r.phase == "done"; }) &&
         std::any_of(table_.entries.begin(), table_.entries.end(),
                     [&](const TableEntry& e) { return entry_key(e) == key; });
}

// The --json summary goes to stdout whenever the run ends with a code (not when a fault ends it: stderr has it).
void TuningRun::end_run(const Error& e, const GemmProblem& problem) const {
  throw Error(e.code(), describe(problem) + (in_hand_.empty() ? "" : ", " + in_hand_) + ": " + e.what() +
                            " (finished entries are kept; --resume carries on)");
}

void TuningRun::recover(const vk::VulkanError& e, const GemmProblem& problem, const std::string& key) {
  if (o_.live_progress) std::fprintf(stderr, "\r\033[K");
  const bool lost_device = e.result() == VK_ERROR_DEVICE_LOST;
  const Disposition disposition = lost_device ? Disposition::device_lost : Disposition::timed_out;
  spdlog::warn("{}: {} {} ({}): recorded as {}; recreating the device", describe(problem), in_hand_,
               lost_device ? "lost the device" : "did not finish", e.what(), disposition_name(disposition));
  Measurement what;
  what.disposition = disposition;
  what.detail = e.what();
  const JournalRecord lost{device_key_, tool_key_, key, "screen", in_hand_, what};
  journal_->append(journal_line(lost));
  prior_.push_back(lost);
  build_workers_.reset();
  device_.reset();
  device_.emplace(*instance_, instance_->select(o_.device));
  start_build_workers();
}

void TuningRun::start_build_workers() {
  build_workers_.reset();
  tune_.build_workers = nullptr;
  const unsigned count = o_.build_workers < 0
                             ? default_build_workers(device_->info().type == VK_PHYSICAL_DEVICE_TYPE_CPU)
                             : unsigned(o_.build_workers);
  if (count == 0) return;
  build_workers_.emplace(*device_, count, "/proc/self/exe", vk::uuid_string(device_->info().device_uuid));
  build_workers_->start();  // their devices come up while the table, the journal and the reference are read
  tune_.build_workers = &*build_workers_;
}

int TuningRun::finish(ExitCode code) {
  if (o_.json) {
    const nlohmann::ordered_json summary = {
        {"table", out_}, {"device", info_.name}, {"exit_code", int(code)}, {"problems", summaries_}};
    std::printf("%s\n", summary.dump(2).c_str());
  }
  return static_cast<int>(code);
}

void TuningRun::record(const TuneResult& result, const std::string& key) {
  if (o_.json) {
    summaries_.push_back(result_summary(result, o_.cold));
  } else {
    print_result(result, shape_name_, info_.name, o_.cold, o_.color, said_);
  }
  TableEntry entry = table_entry(result, o_.cold);
  if (table_.peak) {
    auto on_matrix_units = [](const ConfigResult& c) {
      const KernelFamily* f = find_family(c.variant);
      return f && f->matrix_units;
    };
    if (entry.best) apply_ceiling(*entry.best, *table_.peak, entry, on_matrix_units(*entry.best));
    if (entry.runner_up) apply_ceiling(*entry.runner_up, *table_.peak, entry, on_matrix_units(*entry.runner_up));
    if (o_.json && entry.best) summaries_.back()["ceiling_fraction"] = entry.best->ceiling_fraction;
    if (!o_.json && entry.best && !entry.best->bound_by.empty()) {
      std::printf("  %.0f %% of the %s ceiling measured by `gemmtune peak`\n", 100.0 * entry.best->ceiling_fraction,
                  entry.best->bound_by.c_str());
    }
  }
  if (!entry.best && worst_ == ExitCode::ok) worst_ = ExitCode::unverified;
  record_entry(entry);
  if (!result.interrupted) journal_->append(journal_line(JournalRecord{device_key_, tool_key_, key, "done"}));
}

TuningRun::Outcome TuningRun::tune_problem_once(const GemmProblem& problem, double& shape_budget, size_t shape_size,
                                                size_t index_in_shape) {
  // Sharded, a problem keeps the share of its shape's budget it would have had in a whole run.
  tune_.budget_s = o_.shard_count > 1 ? o_.budget_s / double(shape_size)
                                      : problem_budget_s(o_.budget_s, shape_budget, shape_size, index_in_shape);
  if (o_.total_budget_s > 0) {
    // --total-budget: an equal share of what is left for each problem still to come.
    const double used = std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start_).count();
    tune_.budget_s = std::min(tune_.budget_s, std::max(0.0, o_.total_budget_s - used) / double(problems_left_));
  }
  const std::string key = entry_key(table_key(problem, o_.cold));
  if (finished_before(key)) {
    spdlog::info("{}: already in {} (journal), skipped", describe(problem), out_);
    return Outcome::done;
  }
  tune_.known.clear();
  for (const JournalRecord& r : prior_) {
    // Later records win: a config --isolate recorded as timed_out or crashed stays so.
    if (ours(r, key) && r.phase == "screen" && r.measured) tune_.known[r.config] = *r.measured;
  }
  // The winners of the table's nearest problems (earlier in this run, or tuned before; the twin dtype's too) are
  // screened first. A resumed problem leaves out its own entry, so it screens in the order its first run did.
  const Shape& s = problem.shape;
  const auto rate = naive_rates_.find(std::string(dtype_name(problem.dtype)));
  tune_.naive_gflops = rate == naive_rates_.end() ? 0.0 : rate->second.second;
  const std::optional<DType> twin = twin_dtype(problem.dtype);
  tune_.seeds = similar_winners(
      table_, s.m, s.n, s.k, s.batch, std::string(dtype_name(problem.dtype)), problem.layout.name(), 3, 64,
      [&](const TableEntry& e) { return o_.resume && entry_key(e) == key; },
      twin ? std::string(dtype_name(*twin)) : std::string());
  in_hand_.clear();
  tune_.on_evaluated = [&](const EvaluatedConfig& e, const char* phase) {
    journal_->append(journal_line(JournalRecord{device_key_, tool_key_, key, phase, e.name, e.measurement}));
    in_hand_.clear();  // a fault between configs is not this config's
  };
  tune_.on_begin = [&](const std::string& name) {
    in_hand_ = name;
    journal_->append(journal_line(JournalRecord{device_key_, tool_key_, key, "begin", name}));
  };
  TuneResult result;
  try {
    double best_us = 0.0;
    std::string best_name;
    char index[48];
    std::snprintf(index, sizeof index, "[%zu/%zu]", problem_index_, problem_count_);
    LiveLine live(o_.live_progress, index, (shape_name_.empty() ? "" : shape_name_ + ": ") + describe(problem),
                  tune_.budget_s);
    tune_.on_phase = [&](const std::string& phase, const std::string& detail) { live.phase(phase, detail); };
    struct PhaseHookReset {  // the hook refers to `live`: gone with it, however this block ends
      TuneOptions& tune;
      ~PhaseHookReset() { tune.on_phase = nullptr; }
    } reset_hook{tune_};
    result =
        tune_problem(*device_, problem, families_, tune_, [&](size_t done, size_t total, const EvaluatedConfig& e) {
          const Measurement& m = e.measurement;
          if (m.disposition == Disposition::passed && (best_name.empty() || m.median_us < best_us)) {
            best_us = m.median_us;
            best_name = e.name;
          }
          if (!o_.live_progress) {
            spdlog::info("[{}/{}] {} {}: {}", done, total, e.name, disposition_name(m.disposition),
                         time_text(m.median_us));
            return;
          }
          live.detail(std::to_string(done) + "/" + std::to_string(total) + ", best " + best_name + " " +
                      time_text(best_us));
        });
  } catch (const vk::VulkanError& e) {
    const bool lost_device = e.result() == VK_ERROR_DEVICE_LOST, timed_out = e.result() == VK_TIMEOUT;
    if (!(lost_device || timed_out) || in_hand_.empty() || ++device_losses_ > kMaxDeviceLosses) end_run(e, problem);
    recover(e, problem, key);
    return Outcome::retry;
  } catch (const Error& e) {
    if (e.code() != ExitCode::unsupported)
      end_run(e, problem);  // other faults end the run; the table holds what was measured
    // Recorded, so the table shows why this operation has no entry to use.
    spdlog::error("{}", e.what());
    worst_ = ExitCode::unsupported;
    TableEntry entry = keyed_entry(problem, o_.cold);
    entry.unsupported = e.what();
    record_entry(entry);
    return Outcome::done;
  }
  shape_budget = std::max(0.0, shape_budget - result.elapsed_s);  // everything is charged: reference, baseline
  if (result.baseline && result.baseline->measurement.disposition == Disposition::passed &&
      result.baseline->measurement.median_us > 0.0) {
    auto& [flops, gflops] = naive_rates_[std::string(dtype_name(problem.dtype))];
    if (problem.flops() >= flops) {
      flops = problem.flops();
      gflops = flops / (result.baseline->measurement.median_us * 1e3);
    }
  }
  record(result, key);
  return Outcome::done;
}

int TuningRun::run() {
  // Every operation is resolved before any Vulkan work, so a bad leading dimension or stride is exit 2 at once.
  for (const ShapeRequest& shape : o_.shapes) {
    for (const GemmProblem& problem : problems_of(o_, shape)) resolve(problem);
  }
  owned_families_ = families_of(o_);  // a bad --space file fails here, before any work
  check_kernels_glob(o_, owned_families_);
  // An explicit output is checked, and an existing table read, before any Vulkan work: bad paths and malformed
  // tables fail fast, and a table that cannot be read is never overwritten.
  if (!o_.out.empty()) table_ = load_table_for_device(o_.out, {}, false);
  open_device();
  open_table();
  open_journal();
  stop_on_signals_.emplace();
  configure_search();
  count_problems();
  size_t problem_number = 0;
  for (const ShapeRequest& shape : o_.shapes) {
    const std::vector<GemmProblem> problems = problems_of(o_, shape);
    shape_name_ = shape.name;
    double shape_budget = o_.budget_s;
    for (size_t i = 0; i < problems.size(); ++i) {
      if (problem_number++ % o_.shard_count != o_.shard_index) continue;
      const ProblemCountdown countdown{problems_left_};
      if (g_stop.load()) {
        spdlog::warn("interrupted: {} holds every finished entry; --resume carries on", out_);
        return finish(ExitCode::interrupted);
      }
      ++problem_index_;
      while (tune_problem_once(problems[i], shape_budget, problems.size(), i) == Outcome::retry && !g_stop.load()) {
      }
    }
  }
  if (g_stop.load()) {
    spdlog::warn("interrupted: {} holds every finished entry; --resume carries on", out_);
    return finish(ExitCode::interrupted);
  }
  spdlog::info("tuning table: {}", out_);
  if (instance_->validation_errors() > 0) {
    spdlog::error("the validation layer reported {} errors", instance_->validation_errors());
    if (worst_ == ExitCode::ok) worst_ = ExitCode::device_fault;
  }
  return finish(worst_);
}
}  // namespace

int run_tune(const TuneCommandOptions& o) { return TuningRun(o).run(); }

}  // namespace gemmtune
