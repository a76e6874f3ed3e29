// GemmRunner's builds: a config's pipelines made here, ahead on threads or by the build workers, with the clocks
// kept up while the host waits.
#include "run/gemm_runner.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <thread>
#include <tuple>

#include "core/elapsed.hpp"
#include "kernels/spirv.hpp"
#include "run/build_workers.hpp"
#include "run/clock_keeper.hpp"
#include "run/gemm_runner_phases.hpp"

namespace gemmtune {

namespace {

constexpr double kReadyWaitMs = 10'000.0;  // first_ready() waits no longer for a worker under way

/// A pass's specialization constants as the pipeline takes them.
std::vector<vk::SpecConstant> pass_constants(const rules::Pass& pass) {
  std::vector<vk::SpecConstant> out;
  for (uint32_t i = 0; i < pass.constant_count; ++i) out.push_back({pass.constants[i].id, pass.constants[i].value});
  return out;
}

}  // namespace

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
      // Pipelines this process built before (another problem's, or the finals') are cache hits: no wait for a worker.
      const bool cached = built_before(family, config);
      for (uint64_t ticket : handed->second) cached ? workers_->drop(ticket) : void(workers_->take(ticket));
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

std::unique_ptr<ClockKeeper> GemmRunner::make_keeper(const vk::Device& device, RunOptions& options, bool start) {
  if (!options.keep_clocks || device.info().type == VK_PHYSICAL_DEVICE_TYPE_CPU) return nullptr;
  try {
    auto keeper = std::make_unique<ClockKeeper>(device, options.fence_timeout_ns);
    if (start) keeper->start();
    return keeper;
  } catch (const vk::VulkanError& e) {
    if (e.result() == VK_ERROR_DEVICE_LOST) throw;
    spdlog::warn("the clocks are not kept up between candidates: {}", e.what());
    options.keep_clocks = false;
    return nullptr;
  }
}

void GemmRunner::keep_clocks_up() {
  if (keeper_ && keeper_->running()) return;
  if (!keeper_) keeper_ = make_keeper(device_, options_, false);
  if (!keeper_) return;
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

size_t GemmRunner::first_ready(const std::vector<std::pair<const KernelFamily*, const Config*>>& next,
                               double max_wait_ms) {
  if (!workers_ || next.empty()) return 0;
  std::vector<std::string> keys;
  std::vector<bool> cached;     // every pipeline built before in this process: a cache hit, ready now
  std::vector<uint64_t> order;  // the configs' queued builds go first, in the search's order
  for (const auto& [family, config] : next) {
    keys.push_back(family->config_name(*config, problem_.dtype));
    cached.push_back(built_before(*family, *config));
    const auto handed = worker_builds_.find(keys.back());
    if (handed != worker_builds_.end()) order.insert(order.end(), handed->second.begin(), handed->second.end());
  }
  workers_->prioritize(order);
  const auto start = std::chrono::steady_clock::now();
  for (int timeout_ms = 0;; timeout_ms = 10) {
    workers_->wait_for_reply(timeout_ms);  // reads the replies that arrived, waiting from the second round on
    bool under_way = false;
    for (size_t k = 0; k < keys.size(); ++k) {
      const BuildState s = cached[k] ? BuildState::ready : build_state(keys[k]);
      if (s == BuildState::ready) {
        release_clocks();
        return k;
      }
      under_way = under_way || s == BuildState::under_way;
    }
    if (!under_way || ms_since(start) > std::min(max_wait_ms, kReadyWaitMs)) break;
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

uint64_t GemmRunner::recipe_key(const PassRecipe& recipe) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the recipe's words
  auto mix = [&](uint64_t v) {
    for (int b = 0; b < 8; ++b) h = (h ^ ((v >> (8 * b)) & 0xff)) * 1099511628211ull;
  };
  mix(uint64_t(reinterpret_cast<uintptr_t>(recipe.spirv.data())));
  mix(recipe.spirv.size());
  for (const vk::SpecConstant& c : recipe.constants) mix((uint64_t(c.id) << 32) | c.value);
  mix(recipe.required_subgroup_size);
  return h;
}

bool GemmRunner::built_before(const KernelFamily& family, const Config& config) const {
  const rules::Plan plan = rules::plan(kernel_config(family, config, problem_.dtype), operation_, true);
  for (const PassRecipe& r :
       pass_recipes(family, config, plan, problem_.dtype, device_.info(), options_.alternative_kernels))
    if (!device_.pipeline_built(recipe_key(r))) return false;
  return true;
}

std::vector<BuildRequest> GemmRunner::build_requests(const KernelFamily& family, const Config& config, DType dtype,
                                                     const rules::Operation& operation, const vk::Device& device,
                                                     bool alternative, std::vector<uint64_t> binding_bytes) {
  const rules::Plan plan = rules::plan(kernel_config(family, config, dtype), operation, true);
  std::vector<BuildRequest> out;
  std::set<uint64_t> requested;
  for (PassRecipe& recipe : pass_recipes(family, config, plan, dtype, device.info(), alternative)) {
    const uint64_t key = recipe_key(recipe);
    if (device.pipeline_built(key) || !requested.insert(key).second) continue;  // a cache hit here: no worker's time
    const GemmPush push = recipe.push;
    BuildRequest request;
    request.spirv = recipe.spirv;
    request.constants = std::move(recipe.constants);
    request.push_bytes = uint32_t(sizeof(GemmPush));
    request.required_subgroup_size = recipe.required_subgroup_size;
    request.binding_bytes = binding_bytes;
    request.push.resize(sizeof push);
    std::memcpy(request.push.data(), &push, sizeof push);
    request.dispatch = device.info().type == VK_PHYSICAL_DEVICE_TYPE_CPU;
    out.push_back(std::move(request));
  }
  return out;
}

void GemmRunner::submit_builds(const KernelFamily& family, const Config& config) {
  prepare_split_buffers(family, config);
  const std::vector<uint64_t> binding_bytes = {a_.size(),
                                               b_.size(),
                                               c_.size(),
                                               bias_.size(),
                                               scratch_ ? scratch_->size() : dummy_.size(),
                                               arrivals_ ? arrivals_->size() : dummy_.size()};
  std::vector<uint64_t>& tickets = worker_builds_[family.config_name(config, problem_.dtype)];
  for (const BuildRequest& request :
       build_requests(family, config, problem_.dtype, operation_, device_, options_.alternative_kernels, binding_bytes))
    tickets.push_back(workers_->submit(request));
}

GemmRunner::WorkerTickets GemmRunner::submit_ahead(BuildWorkers& workers, const vk::Device& device,
                                                   const GemmProblem& problem, const RunOptions& options,
                                                   const std::vector<std::pair<const KernelFamily*, Config>>& configs) {
  const rules::Operation operation = operation_of(problem, resolve(with_guard(problem, options.guard)));
  const std::vector<uint64_t> inputs = input_binding_bytes(problem, options, device);
  WorkerTickets out;
  for (const auto& [family, config] : configs) {
    std::vector<uint64_t>& tickets = out[family->config_name(config, problem.dtype)];
    if (!tickets.empty()) continue;
    // Where a dispatch goes with the build (CPU devices), the split buffers as large as this config's plan makes them.
    const rules::Plan plan = rules::plan(kernel_config(*family, config, problem.dtype), operation);
    std::vector<uint64_t> binding_bytes = inputs;
    binding_bytes.push_back(std::max<uint64_t>(16, plan.scratch_floats * 4));
    binding_bytes.push_back(std::max<uint64_t>(16, plan.arrival_counters * 4));
    for (const BuildRequest& request :
         build_requests(*family, config, problem.dtype, operation, device, options.alternative_kernels, binding_bytes))
      tickets.push_back(workers.submit(request));
  }
  return out;
}

void GemmRunner::adopt_builds(WorkerTickets tickets) {
  if (!workers_) return;
  for (auto& [name, handed] : tickets) {
    if (!handed.empty() && !passes_.count(name) && !worker_builds_.count(name))
      worker_builds_[name] = std::move(handed);
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
  rules::Plan& plan = passes->plan;
  plan = rules::plan(kernel_config(family, config, problem_.dtype), operation_, fused);
  if (family.grid_override) plan.passes[plan.main_pass].grid = family.grid_override(config, problem_);
  passes->arrival_counters = plan.arrival_counters;
  const auto start = std::chrono::steady_clock::now();
  const std::vector<PassRecipe> recipes =
      pass_recipes(family, config, plan, problem_.dtype, device_.info(), options_.alternative_kernels);
  // Passes of one recipe share a pipeline.
  std::map<uint64_t, vk::ComputePipeline*> made;
  for (uint32_t p = 0; p < plan.pass_count; ++p) {
    const PassRecipe& recipe = recipes[p];
    const uint64_t key = recipe_key(recipe);
    if (!made.count(key)) {
      passes->pipelines.push_back(std::make_unique<vk::ComputePipeline>(device_, recipe.spirv, recipe.constants,
                                                                        bindings(), uint32_t(sizeof(GemmPush)),
                                                                        recipe.required_subgroup_size));
      device_.note_pipeline_built(key);
      made[key] = passes->pipelines.back().get();
    }
    passes->pass_pipelines.push_back(made[key]);
  }
  passes->main = passes->pass_pipelines[plan.main_pass];
  for (uint32_t p = 0; p < plan.pass_count; ++p) {
    if (plan.passes[p].module == kernel_config_modules::prepass) passes->prepass = passes->pass_pipelines[p];
    if (plan.passes[p].module == kernel_config_modules::reduce) passes->reduce = passes->pass_pipelines[p];
  }
  passes->compile_ms = ms_since(start);
  return passes;
}

std::vector<GemmRunner::PassRecipe> GemmRunner::pass_recipes(const KernelFamily& family, const Config& config,
                                                             const rules::Plan& plan, DType dtype,
                                                             const vk::DeviceInfo& device, bool alternative) {
  // Indexed as kernel_config numbers them (kernel_config_modules).
  const std::array<std::span<const uint32_t>, 3> modules{family.main_module(config, dtype, device, alternative),
                                                         splitk_reduce_spirv(dtype),
                                                         prepass_spirv(family.prepass_for(dtype), dtype)};
  std::vector<PassRecipe> out;
  for (uint32_t p = 0; p < plan.pass_count; ++p) {
    const rules::Pass& pass = plan.passes[p];
    // Only the main pass pins a subgroup size (the others are subgroup-agnostic).
    const bool main = pass.module == kernel_config_modules::main;
    out.push_back({modules.at(pass.module), pass_constants(pass),
                   main ? vk::subgroup_size_to_pin(device, pass.required_subgroup_size) : 0u, pass.push});
  }
  return out;
}

void GemmRunner::drop_pipeline(const std::string& name) {
  passes_.erase(name);
  passes_.erase(name + "/unfused");
  precompiled_.erase(name);
  precompile_errors_.erase(name);
  worker_builds_.erase(name);
}

}  // namespace gemmtune
