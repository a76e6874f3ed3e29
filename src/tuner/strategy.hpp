// Screening orders: which candidate a search screens next, from what it has measured so far (Kernel Tuner's
// strategy files are the model). A strategy sees candidate indices and measurements only: the budget, the runner,
// the journal and the finals are the search's business (tuner/search.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/measurement.hpp"
#include "tuner/space.hpp"

namespace gemmtune {

class ScreeningStrategy {
 public:
  static constexpr size_t kNone = size_t(-1);
  virtual ~ScreeningStrategy() = default;
  /// The candidate to screen next (an index into the candidates the strategy was made for), or kNone when every
  /// one has been given.
  virtual size_t next() = 0;
  /// What screening candidate `i` gave (passed or not, cut or not); every index next() gives is observed once
  /// before the next call.
  virtual void observe(size_t i, const Measurement& m) = 0;
  /// Up to `count` candidates next() would give after the last one, were nothing more observed: pipelines may
  /// be built ahead for them.
  virtual std::vector<size_t> upcoming(size_t count) const = 0;
  /// Gives `i`, one of upcoming()'s, now and out of turn (its pipeline is built while those ahead of it are still
  /// being built); next() never gives it again, and it is observed as next()'s are.
  virtual void take(size_t i) = 0;
};

/// The candidates in the order given (the hand-made prior, tuner/space.hpp's order_for_screening).
std::unique_ptr<ScreeningStrategy> prior_order(size_t candidates);

/// Learning from the screen (`--strategy adaptive`): the prior's first `explore_first` candidates, then three of
/// every four picks from the neighbourhood of the fastest configs screened so far (same family, one parameter
/// different: Kernel Tuner's Hamming neighbours), nearest values first, and every fourth the prior's next, so
/// every family keeps being tried. A best-first local search in each family: the neighbours of its fastest
/// verified config are taken before those of its second, and so on, and the families whose best is within 1.25x
/// of the best overall take turns; slow (cut) and failed configs propose nothing, and the neighbours of configs
/// 1.25x slower than the best so far are left to the prior.
std::unique_ptr<ScreeningStrategy> neighbourhood_order(const std::vector<Candidate>& candidates,
                                                       size_t explore_first = 12);

}  // namespace gemmtune
