// What the search strategies measure through: a GPU runner in production, recorded measurements in tests
// (tuner/replay.hpp). Strategies see candidates, measurements and a clock, nothing else.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "run/gemm_runner.hpp"
#include "tuner/space.hpp"

namespace gemmtune {

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  /// Verifies the candidate and times its screening batches, only the first where that takes `stop_above_us` a
  /// run or more (Measurement::cut).
  virtual Measurement screen(const Candidate& c, double stop_above_us) = 0;
  /// Verifies the candidate and warms it up; sets runs_per_sample, takes no samples.
  virtual Measurement prepare(const Candidate& c, int warmup) = 0;
  /// One timed batch of a prepared candidate: per-run microseconds.
  virtual double sample(const Candidate& c, uint32_t runs) = 0;
  /// The candidate will not be measured again (its pipeline may go).
  virtual void release(const Candidate& c) = 0;
  /// These candidates are screened next: their pipelines may be built now, together (default: nothing).
  virtual void precompile(const std::vector<const Candidate*>& next) { (void)next; }
  /// > 0: precompile() only hands builds to workers and returns at once; this many candidates ahead of the one
  /// screened are worth handing over. 0: precompile() builds its batch before it returns.
  virtual size_t builds_ahead() const { return 0; }
  /// Of these candidates (the strategy's next ones, in its order), the position of the first worth screening
  /// now: one whose pipeline is built, waiting at most `max_wait_s` while workers are building any of them. 0 by
  /// default, and where none is built nor under way: the first is built when it is screened.
  virtual size_t first_ready(const std::vector<const Candidate*>& next, double max_wait_s) {
    (void)next, (void)max_wait_s;
    return 0;
  }
  /// Seconds on the clock that budgets are charged against.
  virtual double now_s() = 0;
  /// False where the device has no timestamps and the host clock times the runs.
  virtual bool timestamps() const = 0;
};

/// The production evaluator: a GemmRunner on a device, the steady clock.
class RunnerEvaluator : public Evaluator {
 public:
  RunnerEvaluator(GemmRunner& runner, unsigned compile_threads) : runner_(runner), compile_threads_(compile_threads) {}
  Measurement screen(const Candidate& c, double stop_above_us) override {
    return runner_.screen(*c.family, c.config, stop_above_us);
  }
  Measurement prepare(const Candidate& c, int warmup) override { return runner_.prepare(*c.family, c.config, warmup); }
  double sample(const Candidate& c, uint32_t runs) override { return runner_.sample(*c.family, c.config, runs); }
  void release(const Candidate& c) override { runner_.drop_pipeline(c.name); }
  void precompile(const std::vector<const Candidate*>& next) override {
    std::vector<std::pair<const KernelFamily*, Config>> configs;
    for (const Candidate* c : next) configs.emplace_back(c->family, c->config);
    runner_.precompile(configs, compile_threads_);
  }
  size_t builds_ahead() const override { return runner_.builds_ahead(); }
  size_t first_ready(const std::vector<const Candidate*>& next, double max_wait_s) override {
    std::vector<std::pair<const KernelFamily*, const Config*>> configs;
    for (const Candidate* c : next) configs.emplace_back(c->family, &c->config);
    return runner_.first_ready(configs, max_wait_s * 1000.0);
  }
  double now_s() override {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
  bool timestamps() const override { return runner_.uses_timestamps(); }

 private:
  GemmRunner& runner_;
  unsigned compile_threads_;
};

}  // namespace gemmtune
