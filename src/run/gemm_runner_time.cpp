// GemmRunner's timing: warm-ups until the clocks hold, then timed batches of back-to-back runs.
#include "run/gemm_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "run/gemm_runner_phases.hpp"

namespace gemmtune {

Measurement GemmRunner::evaluate(const KernelFamily& family, const Config& config, int warmup, int samples) {
  return run_config(family, config, warmup, samples, samples == 0);
}

Measurement GemmRunner::prepare(const KernelFamily& family, const Config& config, int warmup) {
  // A CPU device's runs share the host's cores with the workers' code generation: none runs during the finals.
  if (workers_ && device_.info().type == VK_PHYSICAL_DEVICE_TYPE_CPU) workers_->stop_all();
  return run_config(family, config, warmup, 0, false);
}

Measurement GemmRunner::time_one_run(const KernelFamily& family, const Config& config) {
  const IdleMark idle_mark{device_idle_since_};
  Measurement m;
  const Passes* passes = checked_passes(family, config, m, false);
  if (!passes) return m;
  const auto start = std::chrono::steady_clock::now();
  m.runs_per_sample = 1;
  m.samples_us.push_back(submitter_.run_timed([&](VkCommandBuffer cmd) { record_run(cmd, *passes, 1); }) / 1000.0);
  m.timing_ms += ms_since(start);
  m.summarize(problem_.flops());
  return m;
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
  if (type == VK_PHYSICAL_DEVICE_TYPE_CPU) return kCpuScreenWarmupNs;
  return std::clamp(3.0 * idle_ns, kScreenWarmupFloorNs, kScreenWarmupCapNs);
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
    // the screening warm-up's length where that is longer. CPU devices have no such clocks to bring back: their
    // warm-up is the screening's (at most), which wakes the driver's threads and fills the caches.
    warm_up(warmup, gpu ? std::max(options_.warmup_ns, idle_target) : std::min(options_.warmup_ns, idle_target), gpu);
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

std::vector<std::pair<std::string, double>> GemmRunner::pass_times(const KernelFamily& family, const Config& config,
                                                                   uint32_t runs) {
  const IdleMark idle_mark{device_idle_since_};
  Passes& passes = passes_for(family, config, true);
  bind_passes(family, config, passes);
  // Each kind of pass alone: every pass of its module in the plan's order, a barrier between any two (chunked
  // decoding's decoding passes as one time, its main passes as another).
  const rules::Plan& plan = passes.plan;
  std::vector<std::pair<std::string, double>> out;
  auto time_passes = [&](const char* name, uint32_t module) {
    std::vector<uint32_t> which;
    for (uint32_t i = 0; i < plan.pass_count; ++i)
      if (plan.passes[i].module == module) which.push_back(i);
    if (which.empty()) return;
    const double ns = submitter_.run_timed([&](VkCommandBuffer cmd) {
      for (uint32_t r = 0; r < runs; ++r) {
        for (size_t j = 0; j < which.size(); ++j) {
          if (r > 0 || j > 0) vk::record_compute_barrier(cmd);
          const rules::Pass& pass = plan.passes[which[j]];
          record_grid(cmd, *passes.pass_pipelines[which[j]], pass.grid, pass.push);
        }
      }
    });
    out.emplace_back(name, ns / runs / 1000.0);
  };
  time_passes("prepass", kernel_config_modules::prepass);
  time_passes("main", kernel_config_modules::main);
  time_passes("reduce", kernel_config_modules::reduce);
  return out;
}

}  // namespace gemmtune
