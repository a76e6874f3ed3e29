// Runs GEMM configs of any kernel family on one problem. Device buffers (with guard bands) and the reference are
// made once per problem; each evaluation builds (or reuses) the pipeline, verifies a run on a fresh C image
// (NaN where beta = 0, sentinels outside the written region), then times batches of runs.
#pragma once

#include <array>
#include <chrono>
#include <cmath>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/problem.hpp"
#include "kernels/kernel_def.hpp"
#include "core/measurement.hpp"
#include "run/device_check.hpp"
#include "verify/operands.hpp"
#include "vk/resources.hpp"

namespace gemmtune {

class BuildWorkers;
class ClockKeeper;
struct BuildRequest;

/// The push-constant block every GEMM kernel declares (kernels/common/gemm_common.glsl).
using GemmPush = rules::GemmPush;

struct RunOptions {
  uint64_t seed = 1;
  uint64_t fence_timeout_ns = 120'000'000'000ull;
  /// A timed sample is a batch of back-to-back runs lasting at least this long (at most 4096 runs):
  /// single short dispatches measure submission gaps, not the kernel.
  double min_sample_ns = 2'000'000.0;
  /// Before a finalist's samples, back-to-back batches run until this much device time has passed (on a GPU: or
  /// the screening warm-up's length for the idle before it, where longer, and on until the clocks hold: WarmUp):
  /// GPUs drop their clocks while the host compiles and verifies (an H200 idled at 345 of 1980 MHz), and only
  /// sustained work brings them back. CPU devices: at most the screening warm-up (screen_warmup_ns).
  double warmup_ns = 200'000'000.0;
  /// Before a screening batch, back-to-back runs for this much device time (less the first run after
  /// verification). Negative: from how long the device idled before the warm-up (the host's builds and its
  /// check of the candidate). GPUs: 3x that, 5 ms to 1 s, so the device is busy at least 3/4 of the time: on
  /// the H200 a warm-up of at most 200 ms after seconds of builds, or 20 ms after the host's check of a large result,
  /// screened compute-bound configs 2-4x slower than their finals, fixed warm-ups of 0.3, 0.5 and 1 s agreed within 4
  /// %, and short gaps with short warm-ups agreed within 2 % (results/h200/screen-warmup/ (git history, commit
  /// d280906)). CPU devices (lavapipe) have no such clocks, and their cores stay busy with the build workers'
  /// code generation, which every core-second of warm-up delays: 20 ms.
  double screen_warmup_ns = -1.0;
  /// Timed batches a screening takes (their median ranks it): one batch that another process's work slowed
  /// cannot keep a fast config out of the finals.
  int screen_batches = 3;
  /// Screening verifies on the device where it can (run/device_check.hpp): no readback of C, no host pass over it.
  /// A refusal, every finalist, bench and verify() keep the full host check. false: every check on the host.
  bool device_check = true;
  /// GPUs: while the host builds a pipeline or waits for the build workers, a small FMA load keeps the clocks
  /// up (run/clock_keeper.hpp), and the time it ran pays off the next screening warm-up. false: the device idles.
  bool keep_clocks = true;
  /// Elements of guard band before and after every buffer.
  uint64_t guard = 64;
  /// Constant operands instead of seeded random ones (tests of integer extremes).
  OperandFill fill;
  /// Use a family's alternative module where the device allows it (KernelFamily::alternative_spirv); tests
  /// turn it off to run the plain module on the same device.
  bool alternative_kernels = true;
  /// Cold L2: when > 0, A and B are kept in enough copies to exceed this many bytes together and consecutive
  /// runs read consecutive copies, so no run finds its inputs in the cache (C and split-k scratch stay shared).
  uint64_t cold_bytes = 0;
};

/// Copies of A and B a cold run rotates through: 1 when options.cold_bytes = 0, else enough to exceed
/// cold_bytes, at least 2, and no more than keep each operand's buffer within `max_buffer_bytes` (a device whose
/// buffers cannot hold that many gets fewer; one whose buffers cannot hold 2 is refused by check_problem_fits).
uint64_t input_copies(const GemmProblem& problem, const RunOptions& options, uint64_t max_buffer_bytes = UINT64_MAX);

/// Checks the problem's buffers (guard bands included) in 64-bit arithmetic against 32-bit shader indexing,
/// maxStorageBufferRange, maxMemoryAllocationSize, maxBufferSize and the heap size. Throws an unsupported Error (exit
/// 3) naming the operand, the amount needed and the limit. With `copies` > 1, A and B are counted that many times (cold
/// runs).
void check_problem_fits(const GemmProblem& problem, const vk::Device& device, uint64_t guard = RunOptions{}.guard,
                        uint64_t copies = 1);

/// Where a problem's preparation went, in seconds: what a short budget at a large shape spends before screening.
struct PreparationTimes {
  double operands_s = 0.0;      ///< drawn and encoded for the device
  double reference_s = 0.0;     ///< the host's double product
  double uploads_s = 0.0;       ///< the inputs uploaded (and copied, for cold runs)
  double device_check_s = 0.0;  ///< its pipeline and the expected image uploaded (0 where the host checks)
};
/// Seconds since `start`, written to the debug log as the preparation's part `what`.
double preparation_part_s(const char* what, std::chrono::steady_clock::time_point start);

/// A warm-up's progress: it is done after `min_batches` batches and `target_ns` of device time and, where
/// `wait_for_steady` (GPUs), once a batch agrees within 3 % per run with the one that ended 50 ms of device time or
/// more before it, or at 4x the target. After seconds of idle an H200 was still at idle clocks when a fixed 200 ms
/// warm-up ended (issue 21 step 3: 2559 against 508 us).
struct WarmUp {
  static constexpr double kSteadyTolerance = 0.03;
  static constexpr double kSteadyWindowNs = 50'000'000.0;
  static constexpr double kSteadyCap = 4.0;
  int min_batches = 0;
  double target_ns = 0.0;
  bool wait_for_steady = false;
  int batches_run = 0;
  double warm_ns = 0.0;
  double mark_run_ns = 0.0, mark_warm_ns = 0.0;  ///< the batch the next comparison is against
  bool steady = false;
  /// One warm batch of `runs` runs at `run_ns` each.
  void add_batch(double run_ns, uint32_t runs);
  bool done() const;
};

/// Device time of back-to-back runs before a screening batch: options.screen_warmup_ns where set (>= 0), else by
/// device type (see RunOptions::screen_warmup_ns), `idle_ns` being how long the device has idled.
double screen_warmup_target_ns(const RunOptions& options, VkPhysicalDeviceType type, double idle_ns);

class GemmRunner {
 public:
  GemmRunner(const vk::Device& device, const GemmProblem& problem, const RunOptions& options);
  ~GemmRunner();

  const GemmProblem& problem() const { return problem_; }
  /// Device time of warm-up before a finalist's samples from now on (RunOptions::warmup_ns): the baseline, timed
  /// right after the search, needs no 200 ms to bring the clocks up.
  void set_warmup_ns(double ns) { options_.warmup_ns = ns; }
  bool uses_timestamps() const { return submitter_.uses_timestamps(); }

  /// Verifies `config`, warms up (at least `warmup` batches and RunOptions::warmup_ns of device time), then
  /// times `samples` batches (see RunOptions::min_sample_ns; a sample is the batch time over its runs). With
  /// `samples` = 0 (screening) RunOptions::screen_batches timed batches follow the verification run (on the
  /// device where it can run: screen()), after a warm-up as long as the device type (see
  /// RunOptions::screen_warmup_ns). A run is every pass of the config (split-k's reduce included).
  /// Pipeline build failures give compile_failed; device faults throw.
  Measurement evaluate(const KernelFamily& family, const Config& config, int warmup, int samples);
  /// Screening: verifies `config`, warms up as evaluate() does with `samples` = 0, then times
  /// RunOptions::screen_batches batches, or only the first where its per-run time is `stop_above_us` or more
  /// (Measurement::cut: clearly slower than the best so far, not worth the rest).
  Measurement screen(const KernelFamily& family, const Config& config, double stop_above_us);
  /// Builds the config and verifies one run, without timing it (disposition, error, compile time, statistics):
  /// for callers that ask only whether a config is right.
  Measurement verify(const KernelFamily& family, const Config& config);
  /// verify() as screening checks: on the device where RunOptions::device_check allows (Measurement::device_checked),
  /// with the host check deciding a refusal.
  Measurement verify_as_screened(const KernelFamily& family, const Config& config);
  /// Verifies `config`, then times one run as its one sample, with no warm-up of its own: for a reference point whose
  /// runs are long (the naive baseline at a large shape, 0.5 s a run), where the verification run just before keeps
  /// the clocks up for as long as a run and each further run only spends the budget.
  Measurement time_one_run(const KernelFamily& family, const Config& config);
  /// evaluate() without samples: verifies and warms up, and sets runs_per_sample for sample().
  Measurement prepare(const KernelFamily& family, const Config& config, int warmup);
  /// One timed batch of `runs` runs of a config (verified before through evaluate or prepare): per-run us.
  /// The finals take their samples this way, in rounds across the finalists, so clock drift hits all alike.
  double sample(const KernelFamily& family, const Config& config, uint32_t runs);
  /// Where a run's time goes for a config of several passes (verified before through evaluate or prepare): each
  /// pass alone ("prepass", "main", "reduce", in run order), `runs` back-to-back dispatches of it timed as one batch,
  /// per-run us. Each pass reads what the last full run left (the pre-pass's output, split-k's planes), so the
  /// times are of the same work; on the first copy of the operands (hot).
  std::vector<std::pair<std::string, double>> pass_times(const KernelFamily& family, const Config& config,
                                                         uint32_t runs);
  /// How long the device has idled for this runner: since its last evaluation ended, or since construction began
  /// (the screening warm-up grows with it).
  double device_idle_ns() const;
  /// Runs the config with its epilogue as separate passes (product, then bias, then activation) and returns the
  /// written region: the fused result must equal it bit for bit.
  std::vector<float> run_unfused(const KernelFamily& family, const Config& config);
  /// Builds the pipelines of configs about to be evaluated on up to `threads` threads at once (Vulkan pipeline
  /// creation is thread-safe; the device's pipeline cache is internally synchronized). Configs already built
  /// are skipped. A build error is kept and surfaces when that config is evaluated (compile_failed, or the
  /// device loss thrown), so every outcome still belongs to the config in hand.
  void precompile(const std::vector<std::pair<const KernelFamily*, Config>>& configs, unsigned threads);
  /// From now on precompile() hands its builds to `workers` (run/build_workers.hpp) and returns at once; the
  /// pipelines are made here when their configs run, from the merged cache where a worker built them.
  void use_build_workers(BuildWorkers* workers) { workers_ = workers; }
  /// Tickets of the pipelines of configs handed to the build workers, by config name.
  using WorkerTickets = std::map<std::string, std::vector<uint64_t>>;
  /// Hands the pipelines of `configs` for `problem` to `workers` before a runner for it exists: its operands and host
  /// reference take seconds at large shapes, and a cold pipeline cache's build as long, so the first configs' builds
  /// run under them. The runner takes them over with adopt_builds(); a build no runner adopts is merged and unused.
  static WorkerTickets submit_ahead(BuildWorkers& workers, const vk::Device& device, const GemmProblem& problem,
                                    const RunOptions& options,
                                    const std::vector<std::pair<const KernelFamily*, Config>>& configs);
  /// Takes over builds submit_ahead() handed to the workers set by use_build_workers (none set: ignored), as if
  /// precompile() had handed them over.
  void adopt_builds(WorkerTickets tickets);
  /// Candidates worth handing to the build workers ahead of the one screened: 0 without workers (precompile()
  /// builds its batch before it returns).
  size_t builds_ahead() const;
  /// Of these configs (the next ones to screen, in order), the first whose pipelines are built or whose build
  /// workers have replied, waiting (with the clocks kept up, at most `max_wait_ms` and 10 s) while a worker is
  /// building any of them; 0 where none is built nor under way (or without workers): the first is then built here
  /// when it runs. Their builds still queued go to the front of the workers' queue in this order.
  size_t first_ready(const std::vector<std::pair<const KernelFamily*, const Config*>>& next,
                     double max_wait_ms = HUGE_VAL);
  /// Makes the device check (its pipeline, the expected image uploaded) now, where this problem allows one, instead
  /// of at the first screening: a tuner does while its build workers come up, so the first config's check is not
  /// counted as device idle that its warm-up must pay for.
  void prepare_device_check();
  /// Frees the cached pipelines of a config (pipelines are kept so finalists are not rebuilt).
  void drop_pipeline(const std::string& name);
  const PreparationTimes& preparation() const { return preparation_; }
  /// The reference result (dense row-major, batch * M * N), for tests.
  const std::vector<double>& reference() const { return reference_; }
  /// The written region of the last verified run, for tests.
  const std::vector<float>& last_result() const { return last_result_; }

 private:
  struct Passes;  // the pipelines of one config
  /// What each pass's pipeline is built from (module, constants, subgroup size): the one list build_passes()
  /// and the build workers' requests are made from.
  struct PassRecipe {
    std::span<const uint32_t> spirv;
    std::vector<vk::SpecConstant> constants;
    uint32_t required_subgroup_size = 0;
    GemmPush push{};  ///< the pass's push constants (a CPU device's build dispatches one workgroup with them)
  };
  static std::vector<PassRecipe> pass_recipes(const KernelFamily& family, const Config& config, const rules::Plan& plan,
                                              DType dtype, const vk::DeviceInfo& device, bool alternative);
  /// What a pass's pipeline is built from as one key (vk::Device::pipeline_built): the module (embedded data, named
  /// by its address and size), the constants and the subgroup size.
  static uint64_t recipe_key(const PassRecipe& recipe);
  /// The build workers' requests for a config's pipelines not yet built through `device`'s cache in this process,
  /// with the sizes of the six bindings (`binding_bytes`) a CPU device's one-workgroup dispatch is made in bounds of.
  static std::vector<BuildRequest> build_requests(const KernelFamily& family, const Config& config, DType dtype,
                                                  const rules::Operation& operation, const vk::Device& device,
                                                  bool alternative, std::vector<uint64_t> binding_bytes);
  /// Every pipeline of the config is in the device's cache from an earlier build in this process (a cache hit).
  bool built_before(const KernelFamily& family, const Config& config) const;
  /// The sizes of bindings 0-3 (A, B, C, bias) a runner of this problem makes (bias 16 bytes where there is none).
  static std::vector<uint64_t> input_binding_bytes(const GemmProblem& problem, const RunOptions& options,
                                                   const vk::Device& device);
  /// Hands a config's pipelines to the build workers (its split-k buffers are made first: their sizes go along).
  void submit_builds(const KernelFamily& family, const Config& config);
  Passes& passes_for(const KernelFamily& family, const Config& config, bool fused);
  /// A config's pipelines (by key): built or back from the workers, being built by a worker, or neither (the
  /// tuner builds them when they run).
  enum class BuildState { ready, under_way, not_started };
  BuildState build_state(const std::string& key) const;
  /// The ClockKeeper on while the host builds or waits (GPUs, RunOptions::keep_clocks); off again before the
  /// queue is used, and the device's idle then counts as what the keeper's run left of the warm-up it owed.
  void keep_clocks_up();
  void release_clocks();
  /// A clock keeper, started when `start`, where the options and the device call for one; else nullptr (and
  /// keep_clocks off where one cannot be made).
  static std::unique_ptr<ClockKeeper> make_keeper(const vk::Device& device, RunOptions& options, bool start);
  /// Creates the pipelines of a config; touches no runner state (safe on worker threads once the scratch
  /// buffer is large enough).
  std::unique_ptr<Passes> build_passes(const KernelFamily& family, const Config& config, bool fused) const;
  Measurement run_config(const KernelFamily& family, const Config& config, int warmup, int samples, bool screening,
                         double stop_above_us = HUGE_VAL);
  /// The config's pipelines built, bound and verified (nullptr, with m's disposition set, where not).
  const Passes* checked_passes(const KernelFamily& family, const Config& config, Measurement& m, bool screening);
  /// One run on a fresh C image checked against the reference (and the epilogue element by element); on a
  /// wrong result sets m's disposition and detail and returns false.
  bool verified(const KernelFamily& family, const Config& config, const Passes& passes, Measurement& m);
  /// The device check of one run on a fresh C image, where this problem allows it (no epilogue, fast mode, the
  /// expected image fits): true where it passed (m.error set, m.device_checked); false where it refused or cannot
  /// run, and the host check must decide.
  bool passed_on_device(const KernelFamily& family, const Passes& passes, Measurement& m);
  bool has_epilogue() const;     ///< a bias or an activation: checked element by element on the host
  bool has_order_check() const;  ///< deterministic float mode with a product: the summation order checked
  bool has_elementwise_checks() const { return has_epilogue() || has_order_check(); }
  /// Warm-up and timed batches into m.samples_us (RunOptions::screen_batches when screening, only the first where
  /// it takes `stop_above_us` a run or more).
  void time_runs(const Passes& passes, int warmup, int samples, bool screening, double stop_above_us, Measurement& m);
  /// With a bias or an activation: why the verified result's epilogue is wrong element by element against the
  /// pre-activation result `pre`, or nullopt (sets error.epilogue).
  std::optional<std::string> epilogue_mismatch(std::span<const float> pre, ErrorStats& error) const;
  /// In deterministic mode (float types): why the result before bias and activation, `pre`, does not follow the
  /// config's documented summation order on sampled elements (verify/order_model.hpp), or nullopt.
  std::optional<std::string> order_mismatch(const KernelFamily& family, const Config& config,
                                            std::span<const float> pre) const;
  /// The product with the unfused passes (no fused epilogue), then the bias and activation passes where
  /// `epilogue_passes`; without them, the pre-activation result alpha * op(A) op(B) + beta * C.
  std::vector<float> run_without_fused_epilogue(const KernelFamily& family, const Config& config, bool epilogue_passes);
  void record_run(VkCommandBuffer cmd, const Passes& passes, uint32_t repeats);
  void record_grid(VkCommandBuffer cmd, const vk::ComputePipeline& pipeline, std::array<uint64_t, 3> grid,
                   GemmPush push) const;
  void upload(const vk::Buffer& dst, const void* data, size_t bytes, VkDeviceSize dst_offset = 0);
  /// Fills copies 1 .. copies_ - 1 of an input (`pitch_bytes` apart) from copy 0, on the device.
  void replicate_copies(const vk::Buffer& buffer, VkDeviceSize image_bytes, VkDeviceSize pitch_bytes);
  std::vector<VkBuffer> bindings() const;
  void ensure_scratch(uint64_t floats);
  /// The scratch planes (and arrival counters) a split-k config needs; before its pipelines are built.
  void prepare_split_buffers(const KernelFamily& family, const Config& config);
  /// Makes the arrival counters (binding 5) at least `count` long; a new buffer has no owner.
  void ensure_arrivals(uint64_t count);
  /// Binds a config's buffers to its pipelines, zeroing the arrival counters first when another config (or
  /// none) used them last.
  void bind_passes(const KernelFamily& family, const Config& config, const Passes& passes);

  const vk::Device& device_;
  GemmProblem problem_;
  RunOptions options_;
  PreparationTimes preparation_;  ///< before the operands and reference, which fill it as they are made
  /// The end of the last evaluation; before the first, the start of construction: the device idles while the
  /// host computes the reference (the H200 screened the first config of a problem 3.5x slow with the idle
  /// counted from the end of construction instead: results/h200/notes.md, issue 18 step 28).
  std::chrono::steady_clock::time_point device_idle_since_ = std::chrono::steady_clock::now();
  /// On while the host builds or waits; made and started before the operands and the reference, whose host work
  /// (about a second for a 58 M-element weight) would otherwise leave the first screening a full warm-up to repay.
  std::unique_ptr<ClockKeeper> keeper_;
  std::chrono::steady_clock::time_point keeper_started_ = std::chrono::steady_clock::now();
  double idle_before_keeper_ns_ = 0.0;
  HostOperands operands_;
  std::vector<double> reference_;
  std::vector<float> last_result_;
  vk::Submitter submitter_;
  vk::Buffer a_, b_, c_, bias_, staging_;
  std::optional<vk::Buffer> scratch_;
  std::optional<vk::Buffer> arrivals_;  ///< split-k finished in the main pass (KernelFamily::arrival_counters)
  std::string arrivals_owner_;          ///< the config whose runs last used the counters
  vk::Buffer dummy_;
  rules::Operation operation_;  ///< the problem as the dispatch rules take it, with the operands' guard bands
  GemmPush push_{};
  uint64_t copies_ = 1;                        ///< input copies (cold runs rotate through them)
  uint64_t a_copy_ = 0, b_copy_ = 0;           ///< elements from one copy of A (B) to the next
  uint64_t next_copy_ = 0;                     ///< the copy the next recorded run reads
  std::unique_ptr<DeviceCheck> device_check_;  ///< made by prepare_device_check() or the first screening it serves
  bool device_check_refused_ = false;          ///< this problem cannot be checked on the device
  std::map<std::string, std::unique_ptr<Passes>> passes_;
  /// precompile()'s results not yet taken by passes_for: the pipelines, or the error their build threw.
  std::map<std::string, std::unique_ptr<Passes>> precompiled_;
  std::map<std::string, std::exception_ptr> precompile_errors_;
  BuildWorkers* workers_ = nullptr;
  WorkerTickets worker_builds_;  ///< configs handed to the workers: their tickets
};

}  // namespace gemmtune
