#include "report/rank_test.hpp"

#include <algorithm>
#include <cmath>

namespace gemmtune {

namespace {
constexpr size_t kExactLimit = 50;

/// U of `x` over `y`: pairs with x > y, ties a half each.
double u_statistic(const std::vector<double>& x, const std::vector<double>& y) {
  double u = 0.0;
  for (double a : x)
    for (double b : y) u += a > b ? 1.0 : a == b ? 0.5 : 0.0;
  return u;
}

bool has_ties(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<double> all(x);
  all.insert(all.end(), y.begin(), y.end());
  std::sort(all.begin(), all.end());
  return std::adjacent_find(all.begin(), all.end()) != all.end();
}

/// P(U >= u) when every interleaving of n1 and n2 distinct values is equally likely. count[j][u]: orderings of
/// i values of the first set and j of the second whose U is u, built up one value of the first set at a time
/// (the i-th largest of the first set placed above k of the second adds k).
double exact_upper_tail(size_t n1, size_t n2, double u) {
  const size_t max_u = n1 * n2;
  // ways[i][j][s] over i is kept as two layers; the recurrence f(i, j, s) = f(i - 1, j, s - j) + f(i, j - 1, s).
  std::vector<std::vector<double>> prev(n2 + 1, std::vector<double>(max_u + 1, 0.0)), cur = prev;
  for (size_t j = 0; j <= n2; ++j) prev[j][0] = 1.0;  // i = 0: one ordering, U = 0
  for (size_t i = 1; i <= n1; ++i) {
    for (size_t j = 0; j <= n2; ++j) {
      for (size_t s = 0; s <= max_u; ++s) {
        double ways = s >= j ? prev[j][s - j] : 0.0;
        if (j > 0) ways += cur[j - 1][s];
        cur[j][s] = ways;
      }
    }
    std::swap(prev, cur);
  }
  double total = 0.0, tail = 0.0;
  for (size_t s = 0; s <= max_u; ++s) {
    total += prev[n2][s];
    if (double(s) >= u - 1e-9) tail += prev[n2][s];
  }
  return tail / total;
}

double normal_upper_tail(const std::vector<double>& x, const std::vector<double>& y, double u) {
  const double n1 = double(x.size()), n2 = double(y.size()), n = n1 + n2;
  std::vector<double> all(x);
  all.insert(all.end(), y.begin(), y.end());
  std::sort(all.begin(), all.end());
  double tie_term = 0.0;  // sum of t^3 - t over groups of equal values
  for (size_t i = 0; i < all.size();) {
    size_t j = i;
    while (j < all.size() && all[j] == all[i]) ++j;
    const double t = double(j - i);
    tie_term += t * t * t - t;
    i = j;
  }
  const double variance = n1 * n2 / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)));
  if (variance <= 0.0) return 1.0;  // every value equal: no evidence either way
  const double z = (u - n1 * n2 / 2.0 - 0.5) / std::sqrt(variance);
  return 0.5 * std::erfc(z / std::sqrt(2.0));
}
}  // namespace

double rank_test_greater(const std::vector<double>& slower, const std::vector<double>& faster) {
  if (slower.empty() || faster.empty()) return 1.0;
  const double u = u_statistic(slower, faster);
  if (slower.size() <= kExactLimit && faster.size() <= kExactLimit && !has_ties(slower, faster))
    return exact_upper_tail(slower.size(), faster.size(), u);
  return normal_upper_tail(slower, faster, u);
}

double smallest_rank_test_p(size_t n1, size_t n2) {
  if (n1 == 0 || n2 == 0) return 1.0;
  double choose = 1.0;  // C(n1 + n2, n1), built as a product that stays exact for small sizes
  for (size_t i = 1; i <= n1; ++i) choose = choose * double(n2 + i) / double(i);
  return 1.0 / choose;
}

}  // namespace gemmtune
