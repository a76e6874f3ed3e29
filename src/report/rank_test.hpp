// The Mann-Whitney U test on two sets of timing samples, as Google Benchmark's compare tool decides whether two
// runs differ: a regression is called only when the samples say the difference is real, not from medians alone.
#pragma once

#include <cstddef>
#include <vector>

namespace gemmtune {

/// One-sided p-value of the hypothesis that `slower`'s samples are stochastically greater than `faster`'s: the
/// chance, if both came from one distribution, of a U statistic (pairs with the first greater, ties counting a
/// half) at least as large as observed. Exact (every ordering counted) without ties and up to 50 samples each,
/// else the normal approximation with tie and continuity corrections. 1 when either set is empty.
double rank_test_greater(const std::vector<double>& slower, const std::vector<double>& faster);

/// The smallest one-sided p-value any two sets of these sizes can give: 1 / C(n1 + n2, n1). Below the test's
/// alpha or the test can never call a difference real (3 samples against 3: 0.05).
double smallest_rank_test_p(std::size_t n1, std::size_t n2);

}  // namespace gemmtune
