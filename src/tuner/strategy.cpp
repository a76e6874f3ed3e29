#include "tuner/strategy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <queue>
#include <tuple>

namespace gemmtune {

namespace {

class PriorOrder : public ScreeningStrategy {
 public:
  explicit PriorOrder(size_t count) : given_(count, false) {}
  size_t next() override {
    while (next_ < given_.size() && given_[next_]) ++next_;
    if (next_ == given_.size()) return kNone;
    given_[next_] = true;
    return next_++;
  }
  void observe(size_t, const Measurement&) override {}
  std::vector<size_t> upcoming(size_t count) const override {
    std::vector<size_t> out;
    for (size_t i = next_; i < given_.size() && out.size() < count; ++i)
      if (!given_[i]) out.push_back(i);
    return out;
  }
  void take(size_t i) override { given_.at(i) = true; }

 private:
  std::vector<bool> given_;
  size_t next_ = 0;
};

/// A neighbour proposed by a screened config: taken lowest first (the proposer's time, then how far the changed
/// parameter moved, then the prior's order).
struct Proposal {
  double proposer_us;
  uint32_t distance;
  size_t index;  // candidates are in the prior's order: the index is the prior rank
  bool operator>(const Proposal& o) const {
    return std::tie(proposer_us, distance, index) > std::tie(o.proposer_us, o.distance, o.index);
  }
};

class NeighbourhoodOrder : public ScreeningStrategy {
 public:
  static constexpr double kLocalFactor = 1.25;
  NeighbourhoodOrder(const std::vector<Candidate>& candidates, size_t explore_first)
      : candidates_(candidates), explore_first_(explore_first) {
    state_.given.assign(candidates.size(), false);
    // Each family's members, and for each parameter the rank of every value among the family's values.
    std::map<const KernelFamily*, size_t> family_of;
    for (size_t i = 0; i < candidates.size(); ++i) {
      auto [it, fresh] = family_of.emplace(candidates[i].family, families_.size());
      if (fresh) families_.emplace_back();
      families_[it->second].members.push_back(i);
      family_index_.push_back(it->second);
    }
    state_.frontier.resize(families_.size());
    state_.family_best_us.assign(families_.size(), HUGE_VAL);
    for (Family& f : families_) {
      std::map<std::string, std::vector<uint32_t>> values;
      for (size_t i : f.members)
        for (const auto& [name, value] : candidates[i].config.values) values[name].push_back(value);
      for (auto& [name, list] : values) {
        std::sort(list.begin(), list.end());
        list.erase(std::unique(list.begin(), list.end()), list.end());
        f.values[name] = list;
      }
    }
  }

  size_t next() override { return pick(state_); }

  void observe(size_t i, const Measurement& m) override {
    if (m.disposition != Disposition::passed || m.cut) return;
    state_.best_us = std::min(state_.best_us, m.median_us);
    const Family& f = families_[family_index_[i]];
    const auto& mine = candidates_[i].config.values;
    for (size_t j : f.members) {
      if (state_.given[j]) continue;
      const auto& theirs = candidates_[j].config.values;
      if (theirs.size() != mine.size()) continue;
      int differing = 0;
      uint32_t distance = 0;
      for (size_t p = 0; p < mine.size() && differing < 2; ++p) {
        if (mine[p].first != theirs[p].first) {
          differing = 2;
        } else if (mine[p].second != theirs[p].second) {
          ++differing;
          distance = rank_gap(f, mine[p].first, mine[p].second, theirs[p].second);
        }
      }
      if (differing == 1) state_.frontier[family_index_[i]].push({m.median_us, distance, j});
    }
    double& family_best = state_.family_best_us[family_index_[i]];
    family_best = std::min(family_best, m.median_us);
  }

  void take(size_t i) override {
    if (!state_.given.at(i)) give(state_, i);
  }

  std::vector<size_t> upcoming(size_t count) const override {
    State copy = state_;
    std::vector<size_t> out;
    while (out.size() < count) {
      const size_t i = pick(copy);
      if (i == kNone) break;
      out.push_back(i);
    }
    return out;
  }

 private:
  struct Family {
    std::vector<size_t> members;
    std::map<std::string, std::vector<uint32_t>> values;  ///< each parameter's values in the family, sorted
  };
  struct State {
    std::vector<bool> given;
    size_t given_count = 0;
    size_t prior_next = 0;               ///< the prior's next candidate not yet given, or past it
    size_t local_picks = 0;              ///< picks after the exploration: every fourth goes to the prior
    double best_us = HUGE_VAL;           ///< the fastest verified config observed
    std::vector<double> family_best_us;  ///< the same within each family
    /// Each family's proposals: one queue a family, so a family with many parameters (many neighbours) cannot
    /// crowd out another as fast.
    std::vector<std::priority_queue<Proposal, std::vector<Proposal>, std::greater<Proposal>>> frontier;
    size_t family_turn = 0;  ///< the family whose frontier gives the next local pick, if it is competitive
  };

  static uint32_t rank_gap(const Family& f, const std::string& name, uint32_t a, uint32_t b) {
    const std::vector<uint32_t>& list = f.values.at(name);
    const auto rank = [&](uint32_t v) { return std::lower_bound(list.begin(), list.end(), v) - list.begin(); };
    return uint32_t(std::labs(long(rank(a) - rank(b))));
  }

  static size_t give(State& s, size_t i) {
    s.given[i] = true;
    ++s.given_count;
    return i;
  }

  size_t from_prior(State& s) const {
    while (s.prior_next < s.given.size() && s.given[s.prior_next]) ++s.prior_next;
    return s.prior_next < s.given.size() ? give(s, s.prior_next) : kNone;
  }

  /// The best proposal not yet given of the next competitive family in turn (its best within kLocalFactor of the
  /// best overall), so close families share the local picks; proposals of configs kLocalFactor x slower than the
  /// best are dropped (the neighbourhood of a slow config is left to the prior).
  size_t from_frontier(State& s) const {
    const size_t families = s.frontier.size();
    for (size_t t = 0; t < families; ++t) {
      const size_t f = (s.family_turn + t) % families;
      if (s.family_best_us[f] > kLocalFactor * s.best_us) continue;
      auto& queue = s.frontier[f];
      while (!queue.empty()) {
        const Proposal top = queue.top();
        queue.pop();
        if (top.proposer_us > kLocalFactor * s.best_us) {
          queue = {};  // the queue is ordered by proposer: every later one is slower still
          break;
        }
        if (!s.given[top.index]) {
          s.family_turn = f + 1;
          return give(s, top.index);
        }
      }
    }
    return kNone;
  }

  size_t pick(State& s) const {
    if (s.given_count < explore_first_) return from_prior(s);
    const bool prior_turn = s.local_picks++ % 4 == 3;
    const size_t first = prior_turn ? from_prior(s) : from_frontier(s);
    if (first != kNone) return first;
    return prior_turn ? from_frontier(s) : from_prior(s);
  }

  const std::vector<Candidate>& candidates_;
  size_t explore_first_;
  std::vector<Family> families_;
  std::vector<size_t> family_index_;
  State state_;
};

}  // namespace

std::unique_ptr<ScreeningStrategy> prior_order(size_t candidates) { return std::make_unique<PriorOrder>(candidates); }

std::unique_ptr<ScreeningStrategy> neighbourhood_order(const std::vector<Candidate>& candidates, size_t explore_first) {
  return std::make_unique<NeighbourhoodOrder>(candidates, explore_first);
}

}  // namespace gemmtune
