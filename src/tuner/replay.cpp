#include "tuner/replay.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace gemmtune {

const RecordedConfig& ReplayEvaluator::find(const Candidate& c) const {
  auto it = recorded_.find(c.name);
  if (it == recorded_.end()) throw Error(ExitCode::usage, "replay: no recorded measurement for " + c.name);
  return it->second;
}

Measurement ReplayEvaluator::screen(const Candidate& c, double stop_above_us) {
  const RecordedConfig& r = find(c);
  if (screened_.empty()) clock_s_ += start_cost_s_;
  screened_.push_back(c.name);
  clock_s_ += r.screen_cost_s;
  Measurement m;
  m.disposition = r.disposition;
  if (r.disposition != Disposition::passed) {
    m.detail = "recorded as " + std::string(disposition_name(r.disposition));
    return m;
  }
  // The first recorded samples are the screening batches, as many as a runner takes (RunOptions::screen_batches).
  const size_t batches = std::min(r.samples_us.size(), size_t(RunOptions{}.screen_batches));
  m.samples_us = r.samples_us.empty() ? std::vector<double>{0.0}
                                      : std::vector<double>(r.samples_us.begin(), r.samples_us.begin() + batches);
  if (m.samples_us.front() >= stop_above_us) {
    m.samples_us.resize(1);
    m.cut = true;
  }
  m.summarize(0.0);
  return m;
}

Measurement ReplayEvaluator::prepare(const Candidate& c, int) {
  const RecordedConfig& r = find(c);
  clock_s_ += r.screen_cost_s;
  Measurement m;
  m.disposition = r.disposition;
  if (r.disposition != Disposition::passed) m.detail = "recorded as " + std::string(disposition_name(r.disposition));
  return m;
}

double ReplayEvaluator::sample(const Candidate& c, uint32_t runs) {
  const RecordedConfig& r = find(c);
  sampled_.push_back(c.name);
  size_t& i = next_sample_[c.name];
  const std::vector<double>& samples = r.final_us.empty() ? r.samples_us : r.final_us;
  const double us = samples.empty() ? 0.0 : samples[std::min(i, samples.size() - 1)];
  ++i;
  clock_s_ += us * 1e-6 * runs;
  return us;
}

}  // namespace gemmtune
