// A replay evaluator: measurements recorded earlier (or written by a test) fed to the search strategies, with a
// virtual clock, so strategies, budgets and the noise-aware choice are tested without a GPU (Kernel Tuner's
// simulation mode does the same from cache files).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tuner/evaluator.hpp"

namespace gemmtune {

struct RecordedConfig {
  Disposition disposition = Disposition::passed;
  /// Per-run times, replayed in turn (the last repeats); screening takes the first RunOptions::screen_batches.
  std::vector<double> samples_us;
  double screen_cost_s = 0.01;  ///< virtual seconds one screening (compile, verify, batch) costs
  /// A recorded run's final samples, where it has them: the finals replay these in turn (the last repeats) instead of
  /// samples_us, so a finalist's spread is its finals' own, as a live tune's is, not widened by its screening batches.
  std::vector<double> final_us;
};

class ReplayEvaluator : public Evaluator {
 public:
  /// `build_cost_s`: virtual seconds each config of a precompile batch costs (a driver that builds one at a time).
  explicit ReplayEvaluator(std::map<std::string, RecordedConfig> recorded, double build_cost_s = 0.0)
      : recorded_(std::move(recorded)), build_cost_s_(build_cost_s) {}
  Measurement screen(const Candidate& c, double stop_above_us) override;
  Measurement prepare(const Candidate& c, int warmup) override;
  double sample(const Candidate& c, uint32_t runs) override;
  void release(const Candidate&) override {}
  void precompile(const std::vector<const Candidate*>& next) override {
    precompiled_.emplace_back();
    for (const Candidate* c : next) precompiled_.back().push_back(c->name);
    clock_s_ += build_cost_s_ * double(next.size());
  }
  double now_s() override { return clock_s_; }
  /// Virtual seconds the first screening costs beyond its config's own (a run's start: the device's first
  /// dispatches, the first pipelines), whichever config the strategy screens first.
  void set_start_cost(double s) { start_cost_s_ = s; }
  bool timestamps() const override { return true; }

  /// Names in the order they were screened, prepared and sampled (for tests of ordering and interleaving).
  const std::vector<std::string>& screened() const { return screened_; }
  const std::vector<std::string>& sampled() const { return sampled_; }
  /// The batches of names whose pipelines the search asked to build together.
  const std::vector<std::vector<std::string>>& precompiled() const { return precompiled_; }

 protected:
  /// Virtual time passing outside the recorded costs (a wait a test evaluator models).
  void advance(double s) { clock_s_ += s; }

 private:
  const RecordedConfig& find(const Candidate& c) const;
  std::map<std::string, RecordedConfig> recorded_;
  std::map<std::string, size_t> next_sample_;
  std::vector<std::string> screened_, sampled_;
  std::vector<std::vector<std::string>> precompiled_;
  double build_cost_s_ = 0.0;
  double start_cost_s_ = 0.0;
  double clock_s_ = 0.0;
};

}  // namespace gemmtune
