#include "run/gemm_runner.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <thread>

#include "core/elapsed.hpp"
#include "kernels/spirv.hpp"
#include "run/build_workers.hpp"
#include "run/clock_keeper.hpp"
#include "verify/epilogue_check.hpp"
#include "verify/metric.hpp"
#include "verify/order_model.hpp"
#include "verify/reference.hpp"
#include "vk/check.hpp"

namespace gemmtune {

namespace {

constexpr double kScreenWarmupCapNs = 1e9;  // a second of warm-up brings the H200 back from any idle
constexpr double kReadyWaitMs = 10'000.0;   // first_ready() waits no longer for a worker under way

uint64_t padded_bytes(uint64_t elements, unsigned elem_bytes) { return (elements * elem_bytes + 3) / 4 * 4; }

struct BufferNeed {
  const char* name;
  uint64_t elements, bytes;
};

/// Elements from one copy of an input image to the next: whole 32-byte units, so every copy keeps the
/// 16-byte row alignment of the first.
uint64_t copy_pitch(uint64_t elements) { return (elements + 15) / 16 * 16; }

std::vector<BufferNeed> buffer_needs(const GemmProblem& p, uint64_t guard, uint64_t copies) {
  const ResolvedGemm l = resolve(with_guard(p, guard));
  const unsigned in = dtype_bytes(p.dtype);
  const uint64_t a = copies > 1 ? copy_pitch(l.a.extent + guard) * copies : l.a.extent + guard;
  const uint64_t b = copies > 1 ? copy_pitch(l.b.extent + guard) * copies : l.b.extent + guard;
  std::vector<BufferNeed> out = {{"A", a, padded_bytes(a, in)},
                                 {"B", b, padded_bytes(b, in)},
                                 {"C", l.c.extent + guard, padded_bytes(l.c.extent + guard, 4)}};
  if (p.epilogue.bias) out.push_back({"bias", l.bias_extent + guard, padded_bytes(l.bias_extent + guard, 4)});
  return out;
}

/// A pass's specialization constants as the pipeline takes them.
std::vector<vk::SpecConstant> pass_constants(const rules::Pass& pass) {
  std::vector<vk::SpecConstant> out;
  for (uint32_t i = 0; i < pass.constant_count; ++i) out.push_back({pass.constants[i].id, pass.constants[i].value});
  return out;
}

/// Stamps the end of device work when a scope ends (screening warm-ups last as long as the idle gap).
struct IdleMark {
  std::chrono::steady_clock::time_point& since;
  ~IdleMark() { since = std::chrono::steady_clock::now(); }
};
}  // namespace

struct GemmRunner::Passes {
  std::unique_ptr<vk::ComputePipeline> main;
  std::unique_ptr<vk::ComputePipeline> reduce;  ///< split-k only
  std::array<uint64_t, 3> grid{};
  std::array<uint64_t, 3> reduce_grid{};
  uint32_t splits = 1;
  uint64_t k_split = 0;
  uint64_t arrival_counters = 0;  ///< split-k finished in the main pass: its counters (binding 5)
  double compile_ms = 0.0;
};

uint64_t input_copies(const GemmProblem& problem, const RunOptions& options, uint64_t max_buffer_bytes) {
  if (options.cold_bytes == 0) return 1;
  const ResolvedGemm l = resolve(with_guard(problem, options.guard));
  const uint64_t a = copy_pitch(l.a.extent + options.guard) * dtype_bytes(problem.dtype);
  const uint64_t b = copy_pitch(l.b.extent + options.guard) * dtype_bytes(problem.dtype);
  const uint64_t wanted = std::max<uint64_t>(2, (options.cold_bytes + a + b - 1) / (a + b));
  const uint64_t fit = std::max<uint64_t>(2, std::min(max_buffer_bytes / a, max_buffer_bytes / b));
  return std::min(wanted, fit);
}

namespace {
/// "(z, i, j)" of a dense batch x M x N index.
std::string element_name(const Shape& s, uint64_t index) {
  return "(" + std::to_string(index / (s.m * s.n)) + ", " + std::to_string(index / s.n % s.m) + ", " +
         std::to_string(index % s.n) + ")";
}

/// A float with its bits: "1.2345678 (0x3f9e0652)"; the bits are what an order check compares.
std::string float_bits_text(float x) {
  uint32_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  char text[48];
  std::snprintf(text, sizeof text, "%.9g (0x%08x)", double(x), bits);
  return text;
}

uint64_t largest_buffer(const vk::Device& device) {
  return std::min({uint64_t(device.info().max_storage_buffer_range), device.info().max_memory_allocation_size,
                   device.info().max_buffer_size});
}
}  // namespace

void check_problem_fits(const GemmProblem& problem, const vk::Device& device, uint64_t guard, uint64_t copies) {
  const vk::DeviceInfo& d = device.info();
  const std::string shape = problem.shape.to_string() + " " + std::string(dtype_name(problem.dtype));
  uint64_t total = 0;
  for (const BufferNeed& need : buffer_needs(problem, guard, copies)) {
    auto refuse = [&](uint64_t needed, uint64_t limit, const std::string& unit, const std::string& limit_name) {
      return Error(ExitCode::unsupported, shape + ": operand " + need.name + " needs " + std::to_string(needed) + " " +
                                              unit + ", limit " + std::to_string(limit) + " " + unit + " (" +
                                              limit_name + ")");
    };
    if (need.elements > UINT32_MAX) throw refuse(need.elements, UINT32_MAX, "elements", "32-bit shader indexing");
    if (need.bytes > d.max_storage_buffer_range)
      throw refuse(need.bytes, d.max_storage_buffer_range, "B", "maxStorageBufferRange");
    if (need.bytes > d.max_memory_allocation_size)
      throw refuse(need.bytes, d.max_memory_allocation_size, "B", "maxMemoryAllocationSize");
    if (need.bytes > d.max_buffer_size) throw refuse(need.bytes, d.max_buffer_size, "B", "maxBufferSize");
    total += need.bytes;
  }
  const VkDeviceSize heap = device.heap_size_for(~0u, 0);
  if (total > heap) {
    throw Error(ExitCode::unsupported, shape + ": operands need " + std::to_string(total) + " B, limit " +
                                           std::to_string(heap) + " B (largest memory heap)");
  }
}

GemmRunner::GemmRunner(const vk::Device& device, const GemmProblem& problem, const RunOptions& options)
    : device_(device),
      problem_(problem),
      options_(options),
      operands_(
          (check_problem_fits(problem, device, options.guard, input_copies(problem, options, largest_buffer(device))),
           make_operands(problem, options.seed, options.guard, options.fill))),
      reference_(reference_gemm(problem, operands_)),
      submitter_(device, options.fence_timeout_ns),
      a_(device, buffer_needs(problem, options.guard, input_copies(problem, options, largest_buffer(device)))[0].bytes,
         vk::kStorageBufferUsage, false),
      b_(device, buffer_needs(problem, options.guard, input_copies(problem, options, largest_buffer(device)))[1].bytes,
         vk::kStorageBufferUsage, false),
      c_(device, operands_.c0.size() * 4, vk::kStorageBufferUsage, false),
      bias_(device, std::max<size_t>(16, operands_.bias.size() * 4), vk::kStorageBufferUsage, false),
      staging_(device, std::max({operands_.a_device.size(), operands_.b_device.size(), c_.size(), bias_.size()}),
               VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, true),
      dummy_(device, 16, vk::kStorageBufferUsage, false) {
  operation_ = operation_of(problem, operands_.layout);
  push_ = rules::push_constants(operation_, 1);
  copies_ = input_copies(problem, options, largest_buffer(device));
  if (copies_ > 1) {
    const unsigned in = dtype_bytes(problem.dtype);
    a_copy_ = copy_pitch(operands_.a_device.size() / in);
    b_copy_ = copy_pitch(operands_.b_device.size() / in);
    spdlog::debug("cold runs: {} copies of A and B ({} MB)", copies_, (a_.size() + b_.size()) >> 20);
  }
  // Every copy holds the same image, so any run verifies against the one reference.
  upload(a_, operands_.a_device.data(), operands_.a_device.size());
  upload(b_, operands_.b_device.data(), operands_.b_device.size());
  if (copies_ > 1) {
    replicate_copies(a_, operands_.a_device.size(), a_copy_ * dtype_bytes(problem.dtype));
    replicate_copies(b_, operands_.b_device.size(), b_copy_ * dtype_bytes(problem.dtype));
  }
  if (!operands_.bias.empty()) upload(bias_, operands_.bias.data(), operands_.bias.size() * 4);
}

GemmRunner::~GemmRunner() = default;

void GemmRunner::upload(const vk::Buffer& dst, const void* data, size_t bytes, VkDeviceSize dst_offset) {
  std::memcpy(staging_.mapped(), data, bytes);
  submitter_.run([&](VkCommandBuffer cmd) {
    VkBufferCopy region{0, dst_offset, bytes};
    vkCmdCopyBuffer(cmd, staging_.handle(), dst.handle(), 1, &region);
  });
}

void GemmRunner::replicate_copies(const vk::Buffer& buffer, VkDeviceSize image_bytes, VkDeviceSize pitch_bytes) {
  // Copy 0 is in place; each step copies the copies made so far to the next ones (1, 2, 4, ... at once), on the
  // device in one submission: a small problem has up to millions of copies, one upload each took minutes.
  submitter_.run([&](VkCommandBuffer cmd) {
    for (uint64_t done = 1; done < copies_;) {
      const uint64_t n = std::min(done, copies_ - done);
      const VkBufferCopy region{0, done * pitch_bytes, (n - 1) * pitch_bytes + image_bytes};
      vkCmdCopyBuffer(cmd, buffer.handle(), buffer.handle(), 1, &region);
      vk::record_full_barrier(cmd);
      done += n;
    }
  });
}

std::vector<VkBuffer> GemmRunner::bindings() const {
  return {a_.handle(),
          b_.handle(),
          c_.handle(),
          bias_.handle(),
          scratch_ ? scratch_->handle() : dummy_.handle(),
          arrivals_ ? arrivals_->handle() : dummy_.handle()};
}

void GemmRunner::prepare_split_buffers(const KernelFamily& family, const Config& config) {
  const rules::Plan plan = rules::plan(kernel_config(family, config, problem_.dtype), operation_);
  if (plan.scratch_floats > 0) ensure_scratch(plan.scratch_floats);
  if (plan.arrival_counters > 0) ensure_arrivals(plan.arrival_counters);
}

void GemmRunner::ensure_arrivals(uint64_t count) {
  if (arrivals_ && arrivals_->size() >= count * 4) return;
  arrivals_.reset();
  arrivals_.emplace(device_, std::max<uint64_t>(16, count * 4), vk::kStorageBufferUsage, false);
  arrivals_owner_.clear();  // new memory holds no known counts: the next config to run zeroes it
}

void GemmRunner::bind_passes(const KernelFamily& family, const Config& config, const Passes& passes) {
  // Every completed run leaves the arrival counters at zero; a config that did not (a wrong kernel) must not
  // leave its counts to the next. The same config's next run verifies on the counters its own runs left.
  if (passes.arrival_counters > 0) {
    ensure_arrivals(passes.arrival_counters);
    const std::string name = family.config_name(config, problem_.dtype);
    if (arrivals_owner_ != name) {
      submitter_.run([&](VkCommandBuffer cmd) { vkCmdFillBuffer(cmd, arrivals_->handle(), 0, VK_WHOLE_SIZE, 0); });
      arrivals_owner_ = name;
    }
  }
  for (auto* pipeline : {passes.main.get(), passes.reduce.get()}) {
    if (pipeline) pipeline->bind(bindings());
  }
}

void GemmRunner::ensure_scratch(uint64_t floats) {
  if (scratch_ && scratch_->size() >= floats * 4) return;
  scratch_.reset();
  scratch_.emplace(device_, floats * 4, vk::kStorageBufferUsage, false);
}

GemmRunner::Passes& GemmRunner::passes_for(const KernelFamily& family, const Config& config, bool fused) {
  const std::string key = family.config_name(config, problem_.dtype) + (fused ? "" : "/unfused");
  auto it = passes_.find(key);
  if (it != passes_.end()) return *it->second;
  if (auto error = precompile_errors_.find(key); error != precompile_errors_.end()) {
    const std::exception_ptr thrown = error->second;
    precompile_errors_.erase(error);
    std::rethrow_exception(thrown);
  }
  if (auto built = precompiled_.find(key); built != precompiled_.end()) {
    std::unique_ptr<Passes> passes = std::move(built->second);
    precompiled_.erase(built);
    return *passes_.emplace(key, std::move(passes)).first->second;
  }
  // A config handed to the build workers: what they built is in the device's cache once taken (waiting only for
  // a build under way), and the build here is a cache hit. Its build time is the whole wait.
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<Passes> passes;
  // The keeper covers builds that take time: not the cache hit of a pipeline the workers have sent.
  if (build_state(key) != BuildState::ready) keep_clocks_up();
  try {
    if (auto handed = worker_builds_.find(key); handed != worker_builds_.end()) {
      for (uint64_t ticket : handed->second) workers_->take(ticket);
      worker_builds_.erase(handed);
    }
    prepare_split_buffers(family, config);
    passes = build_passes(family, config, fused);
  } catch (...) {
    try {
      release_clocks();
    } catch (...) {  // the build's own error is the one to report
    }
    throw;
  }
  release_clocks();
  passes->compile_ms = ms_since(start);
  return *passes_.emplace(key, std::move(passes)).first->second;
}

void GemmRunner::keep_clocks_up() {
  if (!options_.keep_clocks || device_.info().type == VK_PHYSICAL_DEVICE_TYPE_CPU) return;
  if (keeper_ && keeper_->running()) return;
  try {
    if (!keeper_) keeper_ = std::make_unique<ClockKeeper>(device_, options_.fence_timeout_ns);
  } catch (const vk::VulkanError& e) {
    if (e.result() == VK_ERROR_DEVICE_LOST) throw;
    spdlog::warn("the clocks are not kept up between candidates: {}", e.what());
    options_.keep_clocks = false;
    return;
  }
  idle_before_keeper_ns_ = device_idle_ns();
  keeper_started_ = std::chrono::steady_clock::now();
  keeper_->start();
}

void GemmRunner::release_clocks() {
  if (!keeper_ || !keeper_->running()) return;
  keeper_->stop();
  // The screening warm-up owes 3x the idle (RunOptions::screen_warmup_ns), at most its 1 s cap; the keeper's
  // run pays that off, and what is left counts as idle from now.
  const auto now = std::chrono::steady_clock::now();
  const double kept_ns = std::chrono::duration<double, std::nano>(now - keeper_started_).count();
  const double owed_ns = std::max(0.0, std::min(3.0 * idle_before_keeper_ns_, kScreenWarmupCapNs) - kept_ns);
  device_idle_since_ = now - std::chrono::nanoseconds(int64_t(owed_ns / 3.0));
}

GemmRunner::BuildState GemmRunner::build_state(const std::string& key) const {
  if (passes_.count(key) || precompiled_.count(key) || precompile_errors_.count(key)) return BuildState::ready;
  const auto handed = worker_builds_.find(key);
  if (handed == worker_builds_.end()) return BuildState::not_started;
  BuildState state = BuildState::ready;
  for (uint64_t ticket : handed->second) {
    const BuildWorkers::Progress p = workers_->progress(ticket);
    if (p == BuildWorkers::Progress::not_started) return BuildState::not_started;
    if (p == BuildWorkers::Progress::under_way) state = BuildState::under_way;
  }
  return state;
}

size_t GemmRunner::first_ready(const std::vector<std::pair<const KernelFamily*, const Config*>>& next) {
  if (!workers_ || next.empty()) return 0;
  std::vector<std::string> keys;
  std::vector<uint64_t> order;  // the configs' queued builds go first, in the search's order
  for (const auto& [family, config] : next) {
    keys.push_back(family->config_name(*config, problem_.dtype));
    const auto handed = worker_builds_.find(keys.back());
    if (handed != worker_builds_.end()) order.insert(order.end(), handed->second.begin(), handed->second.end());
  }
  workers_->prioritize(order);
  const auto start = std::chrono::steady_clock::now();
  for (int timeout_ms = 0;; timeout_ms = 10) {
    workers_->wait_for_reply(timeout_ms);  // reads the replies that arrived, waiting from the second round on
    bool under_way = false;
    for (size_t k = 0; k < keys.size(); ++k) {
      const BuildState s = build_state(keys[k]);
      if (s == BuildState::ready) {
        release_clocks();
        return k;
      }
      under_way = under_way || s == BuildState::under_way;
    }
    if (!under_way || ms_since(start) > kReadyWaitMs) break;
    keep_clocks_up();
  }
  release_clocks();
  return 0;
}

size_t GemmRunner::builds_ahead() const {
  if (!workers_) return 0;
  // One waiting behind each build, so a worker never idles until the tuner next looks (on CPU devices the workers
  // run at the lowest priority: builds ahead take only cores the runs leave idle).
  return size_t(workers_->count()) * 2;
}

void GemmRunner::submit_builds(const KernelFamily& family, const Config& config) {
  prepare_split_buffers(family, config);
  const rules::Plan plan = rules::plan(kernel_config(family, config, problem_.dtype), operation_, true);
  GemmPush push = push_;
  push.k_split = uint32_t(plan.push.k_split);
  std::vector<uint64_t> binding_bytes = {a_.size(),
                                         b_.size(),
                                         c_.size(),
                                         bias_.size(),
                                         scratch_ ? scratch_->size() : dummy_.size(),
                                         arrivals_ ? arrivals_->size() : dummy_.size()};
  std::vector<uint64_t>& tickets = worker_builds_[family.config_name(config, problem_.dtype)];
  for (PassRecipe& recipe : pass_recipes(family, plan)) {
    BuildRequest request;
    request.spirv = recipe.spirv;
    request.constants = std::move(recipe.constants);
    request.push_bytes = uint32_t(sizeof(GemmPush));
    request.required_subgroup_size = recipe.required_subgroup_size;
    request.binding_bytes = binding_bytes;
    request.push.resize(sizeof push);
    std::memcpy(request.push.data(), &push, sizeof push);
    request.dispatch = device_.info().type == VK_PHYSICAL_DEVICE_TYPE_CPU;
    tickets.push_back(workers_->submit(request));
  }
}

void GemmRunner::precompile(const std::vector<std::pair<const KernelFamily*, Config>>& configs, unsigned threads) {
  std::vector<std::pair<const KernelFamily*, const Config*>> todo;
  for (const auto& [family, config] : configs) {
    const std::string key = family->config_name(config, problem_.dtype);
    if (passes_.count(key) || precompiled_.count(key) || precompile_errors_.count(key) || worker_builds_.count(key))
      continue;
    if (workers_) {
      submit_builds(*family, config);
      continue;
    }
    prepare_split_buffers(*family, config);
    todo.emplace_back(family, &config);
  }
  std::vector<std::unique_ptr<Passes>> built(todo.size());
  std::vector<std::exception_ptr> errors(todo.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < todo.size(); i = next++) {
      try {
        built[i] = build_passes(*todo[i].first, *todo[i].second, true);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> workers;
  for (unsigned t = 1; t < std::min<size_t>(std::max(1u, threads), todo.size()); ++t) workers.emplace_back(work);
  work();
  for (std::thread& w : workers) w.join();
  for (size_t i = 0; i < todo.size(); ++i) {
    const std::string key = todo[i].first->config_name(*todo[i].second, problem_.dtype);
    if (errors[i]) {
      precompile_errors_.emplace(key, errors[i]);
    } else {
      precompiled_.emplace(key, std::move(built[i]));
    }
  }
}

std::unique_ptr<GemmRunner::Passes> GemmRunner::build_passes(const KernelFamily& family, const Config& config,
                                                             bool fused) const {
  auto passes = std::make_unique<Passes>();
  // The plan a kit of `gemmtune export --format kit` makes for the same config (src/core/dispatch_rules.hpp).
  const rules::Plan plan = rules::plan(kernel_config(family, config, problem_.dtype), operation_, fused);
  passes->splits = family.splits(config);
  passes->grid = family.grid_override ? family.grid_override(config, problem_) : plan.passes[0].grid;
  passes->k_split = plan.push.k_split;
  passes->arrival_counters = plan.arrival_counters;
  const auto start = std::chrono::steady_clock::now();
  const std::vector<PassRecipe> recipes = pass_recipes(family, plan);
  passes->main = std::make_unique<vk::ComputePipeline>(device_, recipes[0].spirv, recipes[0].constants, bindings(),
                                                       uint32_t(sizeof(GemmPush)), recipes[0].required_subgroup_size);
  if (recipes.size() > 1) {
    passes->reduce =
        std::make_unique<vk::ComputePipeline>(device_, recipes[1].spirv, recipes[1].constants, bindings(),
                                              uint32_t(sizeof(GemmPush)), recipes[1].required_subgroup_size);
    passes->reduce_grid = plan.passes[1].grid;
  }
  passes->compile_ms = ms_since(start);
  return passes;
}

std::vector<GemmRunner::PassRecipe> GemmRunner::pass_recipes(const KernelFamily& family,
                                                             const rules::Plan& plan) const {
  const std::array<std::span<const uint32_t>, 2> modules{
      family.module_for(problem_.dtype, device_.info(), options_.alternative_kernels),
      splitk_reduce_spirv(problem_.dtype)};
  std::vector<PassRecipe> out;
  for (uint32_t p = 0; p < plan.pass_count && p < 2; ++p) {
    const rules::Pass& pass = plan.passes[p];
    // Only the main pass pins a subgroup size (the reduce pass is subgroup-agnostic).
    out.push_back({modules.at(pass.module), pass_constants(pass),
                   p == 0 ? vk::subgroup_size_to_pin(device_.info(), pass.required_subgroup_size) : 0u});
  }
  return out;
}

void GemmRunner::record_grid(VkCommandBuffer cmd, const vk::ComputePipeline& pipeline, std::array<uint64_t, 3> grid,
                             GemmPush push) const {
  // Grids past maxComputeWorkGroupCount are split into several dispatches; base_* tells each where it starts.
  const auto& max = device_.info().max_workgroup_count;
  rules::for_each_dispatch(
      grid, {max[0], max[1], max[2]},
      [&](uint32_t x, uint32_t y, uint32_t z, uint32_t count_x, uint32_t count_y, uint32_t count_z) {
        push.base_x = x, push.base_y = y, push.base_z = z;
        pipeline.record_dispatch(cmd, &push, count_x, count_y, count_z);
      });
}

void GemmRunner::record_run(VkCommandBuffer cmd, const Passes& passes, uint32_t repeats) {
  GemmPush push = push_;
  push.k_split = uint32_t(passes.k_split);
  for (uint32_t r = 0; r < repeats; ++r) {
    // Each run writes C: keep runs ordered, as a caller's would be, with the barrier a caller chaining dispatches
    // records (results/h200/notes.md, step 14). Copies before and after a batch carry full barriers of their own.
    if (r > 0) vk::record_compute_barrier(cmd);
    // Cold runs: the rotation carries on across batches, so a batch never starts on recently read copies.
    const uint64_t copy = next_copy_++ % copies_;
    push.off_a = uint32_t(push_.off_a + copy * a_copy_);
    push.off_b = uint32_t(push_.off_b + copy * b_copy_);
    record_grid(cmd, *passes.main, passes.grid, push);
    if (passes.reduce) {
      vk::record_compute_barrier(cmd);
      record_grid(cmd, *passes.reduce, passes.reduce_grid, push);
    }
  }
}

Measurement GemmRunner::evaluate(const KernelFamily& family, const Config& config, int warmup, int samples) {
  return run_config(family, config, warmup, samples, samples == 0);
}

Measurement GemmRunner::prepare(const KernelFamily& family, const Config& config, int warmup) {
  // A CPU device's runs share the host's cores with the workers' code generation: none runs during the finals.
  if (workers_ && device_.info().type == VK_PHYSICAL_DEVICE_TYPE_CPU) workers_->stop_all();
  return run_config(family, config, warmup, 0, false);
}

void WarmUp::add_batch(double run_ns, uint32_t runs) {
  warm_ns += run_ns * runs;
  ++batches_run;
  if (batches_run == 1) {
    mark_run_ns = run_ns, mark_warm_ns = warm_ns;
    return;
  }
  // Compared with the batch that ended at least kSteadyWindowNs of device time earlier: two short batches in a row
  // agree even while the clocks are still climbing.
  if (warm_ns - mark_warm_ns < kSteadyWindowNs) return;
  steady = std::abs(run_ns - mark_run_ns) <= kSteadyTolerance * mark_run_ns;
  mark_run_ns = run_ns, mark_warm_ns = warm_ns;
}

bool WarmUp::done() const {
  if (batches_run < min_batches || warm_ns < target_ns) return false;
  return !wait_for_steady || steady || warm_ns >= kSteadyCap * target_ns;
}

double screen_warmup_target_ns(const RunOptions& options, VkPhysicalDeviceType type, double idle_ns) {
  if (options.screen_warmup_ns >= 0.0) return options.screen_warmup_ns;
  if (type == VK_PHYSICAL_DEVICE_TYPE_CPU) return 20'000'000.0;
  return std::clamp(3.0 * idle_ns, 20'000'000.0, kScreenWarmupCapNs);
}

Measurement GemmRunner::screen(const KernelFamily& family, const Config& config, double stop_above_us) {
  return run_config(family, config, 0, 0, true, stop_above_us);
}

Measurement GemmRunner::run_config(const KernelFamily& family, const Config& config, int warmup, int samples,
                                   bool screening, double stop_above_us) {
  const IdleMark idle_mark{device_idle_since_};  // however this ends, the device idles from then on
  Measurement m;
  const Passes* passes = checked_passes(family, config, m, screening);
  if (!passes) return m;
  time_runs(*passes, warmup, samples, screening, stop_above_us, m);
  m.summarize(problem_.flops());
  return m;
}

Measurement GemmRunner::verify(const KernelFamily& family, const Config& config) {
  const IdleMark idle_mark{device_idle_since_};
  Measurement m;
  checked_passes(family, config, m, false);
  return m;
}

Measurement GemmRunner::verify_as_screened(const KernelFamily& family, const Config& config) {
  const IdleMark idle_mark{device_idle_since_};
  Measurement m;
  checked_passes(family, config, m, true);
  return m;
}

const GemmRunner::Passes* GemmRunner::checked_passes(const KernelFamily& family, const Config& config, Measurement& m,
                                                     bool screening) {
  Passes* passes = nullptr;
  const bool cached = passes_.count(family.config_name(config, problem_.dtype)) > 0;
  try {
    passes = &passes_for(family, config, true);
  } catch (const vk::VulkanError& e) {
    if (e.result() == VK_ERROR_DEVICE_LOST) throw;
    m.disposition = Disposition::compile_failed;
    m.detail = e.what();
    return nullptr;
  }
  if (!cached) m.compile_ms = passes->compile_ms;
  for (const vk::PipelineStatistic& s : passes->main->statistics()) m.pipeline_statistics.emplace_back(s.name, s.value);
  if (passes->reduce) {
    for (const vk::PipelineStatistic& s : passes->reduce->statistics())
      m.pipeline_statistics.emplace_back("reduce: " + s.name, s.value);
  }
  bind_passes(family, config, *passes);
  const auto start = std::chrono::steady_clock::now();
  const bool ok = (screening && passed_on_device(family, *passes, m)) || verified(family, config, *passes, m);
  m.verify_ms += ms_since(start);
  return ok ? passes : nullptr;
}

bool GemmRunner::has_epilogue() const {
  return problem_.epilogue.bias || problem_.epilogue.activation != Activation::none;
}

bool GemmRunner::has_order_check() const {
  return problem_.mode == Mode::deterministic && !is_integer(problem_.dtype) && problem_.alpha != 0.0f;
}

void GemmRunner::prepare_device_check() {
  // The device check covers the product; the epilogue and order checks compare elements on the host.
  if (!options_.device_check || has_elementwise_checks() || device_check_refused_ || device_check_) return;
  if (!DeviceCheck::fits(device_, operands_.c0.size())) {
    device_check_refused_ = true;
    return;
  }
  try {
    device_check_ = std::make_unique<DeviceCheck>(device_, submitter_, problem_, operands_, reference_, c_);
  } catch (const vk::VulkanError& e) {
    if (e.result() == VK_ERROR_DEVICE_LOST) throw;
    // Out of memory for the expected image, say: the host check serves this problem instead.
    spdlog::warn("{}: the device check is unavailable ({}); checking on the host", problem_.shape.to_string(),
                 e.what());
    device_check_refused_ = true;
  }
}

bool GemmRunner::passed_on_device(const KernelFamily& family, const Passes& passes, Measurement& m) {
  prepare_device_check();
  if (!device_check_) return false;
  next_copy_ = copies_ - 1;  // as verified(): cold runs check the last copy
  submitter_.run_timed([&](VkCommandBuffer cmd) { record_run(cmd, passes, 1); },
                       [&](VkCommandBuffer cmd) { device_check_->record_reset(cmd); },
                       [&](VkCommandBuffer cmd) { device_check_->record_check(cmd); });
  const DeviceVerdict v = device_check_->verdict(family.error_bound(problem_.dtype));
  if (!v.passed()) {
    spdlog::debug("device check refused (error {}, {} non-finite, {} touched): checking on the host", v.error.error,
                  v.error.non_finite, v.touched);
    return false;
  }
  m.error = v.error;
  m.device_checked = true;
  return true;
}

bool GemmRunner::verified(const KernelFamily& family, const Config& config, const Passes& passes, Measurement& m) {
  // Verification run on a fresh C image. Cold runs verify the last input copy: a wrong copy
  // pitch or upload would show there first.
  next_copy_ = copies_ - 1;
  std::memcpy(staging_.mapped(), operands_.c0.data(), c_.size());
  submitter_.run_timed([&](VkCommandBuffer cmd) { record_run(cmd, passes, 1); },
                       [&](VkCommandBuffer cmd) {
                         VkBufferCopy region{0, 0, c_.size()};
                         vkCmdCopyBuffer(cmd, staging_.handle(), c_.handle(), 1, &region);
                         vk::record_full_barrier(cmd);
                       },
                       [&](VkCommandBuffer cmd) {
                         vk::record_full_barrier(cmd);
                         VkBufferCopy region{0, 0, c_.size()};
                         vkCmdCopyBuffer(cmd, c_.handle(), staging_.handle(), 1, &region);
                         vk::record_full_barrier(cmd);
                       });
  // The host's check of a large C leaves the device idle for 0.1 s or more, which the next warm-up would repay
  // 3x: the clock keeper holds the clocks meanwhile.
  keep_clocks_up();
  std::vector<float> image(c_.size() / 4);
  std::memcpy(image.data(), staging_.mapped(), c_.size());
  GatheredResult gathered = gather_result(problem_, operands_, image);
  last_result_ = std::move(gathered.values);
  m.error = is_integer(problem_.dtype)
                ? compare_exact_int32(last_result_, reference_)
                : compare_with_reference(last_result_, reference_, family.error_bound(problem_.dtype));
  release_clocks();
  if (gathered.touched > 0) {
    m.disposition = Disposition::incorrect;
    m.detail = std::to_string(gathered.touched) +
               " elements outside the written region of C changed (first at buffer index " +
               std::to_string(gathered.first_touched) + ")";
    return false;
  }
  if (!m.error.passed) {
    m.disposition = Disposition::incorrect;
    m.detail = m.error.non_finite
                   ? std::to_string(m.error.non_finite) + " non-finite results"
                   : "error " + std::to_string(m.error.error) + " > bound " + std::to_string(m.error.bound);
    return false;
  }
  // The epilogue and the summation order are checked against the device's own result before bias and
  // activation: with either, the unfused product pass gives it, and leaves C holding it (what is timed next
  // overwrites it, as every repeat does).
  if (!has_elementwise_checks()) return true;
  const bool epilogue = has_epilogue(), ordered = has_order_check();
  const std::vector<float> pre = epilogue ? run_without_fused_epilogue(family, config, false) : std::vector<float>{};
  const std::span<const float> product = epilogue ? std::span<const float>(pre) : std::span<const float>(last_result_);
  std::optional<std::string> mismatch = epilogue ? epilogue_mismatch(product, m.error) : std::nullopt;
  if (!mismatch && ordered) mismatch = order_mismatch(family, config, product);
  if (!mismatch) return true;
  m.disposition = Disposition::incorrect;
  m.detail = *mismatch;
  return false;
}

void GemmRunner::time_runs(const Passes& passes, int warmup, int samples, bool screening, double stop_above_us,
                           Measurement& m) {
  // Runs per batch so a batch lasts min_sample_ns, from a per-run time estimate.
  auto repeats_for = [&](double run_ns, double batch_ns) {
    return uint32_t(std::clamp(std::ceil(batch_ns / std::max(run_ns, 1.0)), 1.0, 4096.0));
  };
  auto timed_batch = [&](uint32_t repeats) {
    return submitter_.run_timed([&](VkCommandBuffer cmd) { record_run(cmd, passes, repeats); }) / repeats;
  };
  // The verification run is never a timing, nor warm-up, nor the estimate of a run: a driver may finish
  // compiling at the first dispatch (lavapipe's JIT does) and the GPU may still be at idle clocks, and a slow
  // first dispatch taken as the estimate would cut screening's warm-up short. One plain run sets it.
  // Clocks fall while the device idles (an H200 went to 345 of 1980 MHz between candidates whose host-side
  // compile and check took a few hundred ms) and only sustained work brings them back. The idle counts from the
  // end of the last candidate's device work to now: the build, and this candidate's check on the host.
  const double idle_target = screen_warmup_target_ns(options_, device_.info().type, device_idle_ns());
  const auto start = std::chrono::steady_clock::now();  // the estimate run and the warm-up: warmup_ms
  double run_ns = timed_batch(1);
  // Warm-up by count and by device time; the per-run estimate is refreshed from each warm batch. Before a
  // finalist's samples on a GPU it also waits for steady clocks (WarmUp): after seconds of idle the H200 still ran
  // at idle clocks at the end of a 200 ms warm-up (results/h200/notes.md, issue 21 step 3). Screening keeps its
  // idle-length rule alone, which the H200 measured (RunOptions::screen_warmup_ns) and --screen-warmup sets.
  const bool gpu = device_.info().type != VK_PHYSICAL_DEVICE_TYPE_CPU;
  auto warm_up = [&](int batches, double target_ns, bool wait_for_steady) {
    WarmUp w{batches, target_ns, wait_for_steady};
    while (!w.done()) {
      const uint32_t repeats = repeats_for(
          run_ns, std::min(options_.min_sample_ns * 4, std::max(options_.min_sample_ns, target_ns - w.warm_ns)));
      run_ns = timed_batch(repeats);
      w.add_batch(run_ns, repeats);
      if (w.batches_run > 10000) break;  // a device whose runs report no time: never loop forever
    }
  };
  if (screening) {
    if (run_ns < idle_target) warm_up(0, idle_target - run_ns, false);
  } else {
    // On a GPU, a finalist or a bench after a long idle (a fresh pipeline's build took 4.8 s on the H200) gets
    // the screening warm-up's length where that is longer; CPU devices have no clocks to bring back.
    warm_up(warmup, gpu ? std::max(options_.warmup_ns, idle_target) : options_.warmup_ns, gpu);
  }
  m.warmup_ms += ms_since(start);
  const auto timing_start = std::chrono::steady_clock::now();
  m.runs_per_sample = repeats_for(run_ns, options_.min_sample_ns);
  const int batches = screening ? std::max(1, options_.screen_batches) : samples;
  for (int i = 0; i < batches; ++i) {
    m.samples_us.push_back(timed_batch(m.runs_per_sample) / 1000.0);
    if (screening && i == 0 && m.samples_us[0] >= stop_above_us) {
      m.cut = true;
      break;
    }
  }
  m.timing_ms += ms_since(timing_start);
}

double GemmRunner::device_idle_ns() const {
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - device_idle_since_).count();
}

double GemmRunner::sample(const KernelFamily& family, const Config& config, uint32_t runs) {
  const IdleMark idle_mark{device_idle_since_};
  Passes& passes = passes_for(family, config, true);
  bind_passes(family, config, passes);
  return submitter_.run_timed([&](VkCommandBuffer cmd) { record_run(cmd, passes, runs); }) / runs / 1000.0;
}

std::optional<std::string> GemmRunner::epilogue_mismatch(std::span<const float> pre, ErrorStats& error) const {
  const EpilogueCheck e = check_epilogue(problem_, operands_, pre, last_result_);
  error.epilogue = e.error;
  if (e.passed) return std::nullopt;
  return "epilogue at " + element_name(problem_.shape, e.worst_index) + ": " + problem_.epilogue.name() + "(" +
         std::to_string(e.pre) + ") = " + std::to_string(e.expected) + ", got " + std::to_string(e.got) + ": error " +
         std::to_string(e.error) + " > bound " + std::to_string(kEpilogueBound) + " (elementwise, of max(1, |x|))";
}

std::optional<std::string> GemmRunner::order_mismatch(const KernelFamily& family, const Config& config,
                                                      std::span<const float> pre) const {
  if (!family.summation_order) return "deterministic mode: " + family.name + " states no summation order to check";
  const OrderCheck check =
      check_summation_order(problem_, operands_, family.summation_order(config, problem_, device_.info()), pre);
  if (check.passed) return std::nullopt;
  return "deterministic mode: " + std::to_string(check.differing) + " of " + std::to_string(check.sampled) +
         " sampled elements differ from the documented summation order (first at " +
         element_name(problem_.shape, check.first_index) + ": got " + float_bits_text(check.got) +
         ", the order gives " + float_bits_text(check.expected) + ")";
}

std::vector<float> GemmRunner::run_unfused(const KernelFamily& family, const Config& config) {
  return run_without_fused_epilogue(family, config, true);
}

std::vector<float> GemmRunner::run_without_fused_epilogue(const KernelFamily& family, const Config& config,
                                                          bool epilogue_passes) {
  Passes& product = passes_for(family, config, false);
  bind_passes(family, config, product);
  auto epilogue_pass = [&](uint32_t op) {
    std::vector<vk::SpecConstant> constants;
    for (const rules::SpecConstant& c : rules::operation_constants(operation_, true, 1))
      constants.push_back({c.id, c.value});
    constants.push_back({30, op});
    return std::make_unique<vk::ComputePipeline>(device_, epilogue_spirv(), constants, bindings(),
                                                 uint32_t(sizeof(GemmPush)));
  };
  std::unique_ptr<vk::ComputePipeline> bias_pass, activation_pass;
  if (epilogue_passes && problem_.epilogue.bias) bias_pass = epilogue_pass(1);
  if (epilogue_passes && problem_.epilogue.activation != Activation::none) activation_pass = epilogue_pass(2);

  const std::array<uint64_t, 3> element_grid = rules::reduce_grid(operation_);
  std::memcpy(staging_.mapped(), operands_.c0.data(), c_.size());
  submitter_.run([&](VkCommandBuffer cmd) {
    VkBufferCopy region{0, 0, c_.size()};
    vkCmdCopyBuffer(cmd, staging_.handle(), c_.handle(), 1, &region);
    vk::record_full_barrier(cmd);
    record_run(cmd, product, 1);
    for (auto* pass : {bias_pass.get(), activation_pass.get()}) {
      if (!pass) continue;
      vk::record_full_barrier(cmd);
      record_grid(cmd, *pass, element_grid, push_);
    }
    vk::record_full_barrier(cmd);
    vkCmdCopyBuffer(cmd, c_.handle(), staging_.handle(), 1, &region);
    vk::record_full_barrier(cmd);
  });
  std::vector<float> image(c_.size() / 4);
  std::memcpy(image.data(), staging_.mapped(), c_.size());
  return gather_result(problem_, operands_, image).values;
}

void GemmRunner::drop_pipeline(const std::string& name) {
  passes_.erase(name);
  passes_.erase(name + "/unfused");
  precompiled_.erase(name);
  precompile_errors_.erase(name);
  worker_builds_.erase(name);
}

}  // namespace gemmtune
