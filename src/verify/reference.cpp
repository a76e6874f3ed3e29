#include "verify/reference.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <thread>

namespace gemmtune {

std::vector<double> reference_gemm(const GemmProblem& problem, const HostOperands& ops) {
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using RowMajorF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Shape& s = problem.shape;
  const Eigen::Index m = Eigen::Index(s.m), n = Eigen::Index(s.n), k = Eigen::Index(s.k);
  std::vector<double> out(s.batch * s.m * s.n);
  // Eigen runs single-threaded here (no OpenMP, so no libgomp at run time): split the rows over threads instead.
  const unsigned threads = std::max(1u, std::min(std::thread::hardware_concurrency(), unsigned(std::max<uint64_t>(1, s.m / 64))));
  for (uint64_t z = 0; z < s.batch; ++z) {
    RowMajor b = Eigen::Map<const RowMajorF>(ops.b.data() + z * s.k * s.n, k, n).cast<double>();
    auto rows = [&](Eigen::Index r0, Eigen::Index r1) {
      RowMajor a = Eigen::Map<const RowMajorF>(ops.a.data() + (z * s.m + uint64_t(r0)) * s.k, r1 - r0, k).cast<double>();
      Eigen::Map<RowMajor> c(out.data() + (z * s.m + uint64_t(r0)) * s.n, r1 - r0, n);
      c.noalias() = double(problem.alpha) * (a * b);
      if (problem.beta != 0.0f) {
        c += double(problem.beta) *
             Eigen::Map<const RowMajorF>(ops.c0.data() + (z * s.m + uint64_t(r0)) * s.n, r1 - r0, n).cast<double>();
      }
    };
    std::vector<std::thread> pool;
    const Eigen::Index chunk = (m + threads - 1) / threads;
    for (Eigen::Index r0 = chunk; r0 < m; r0 += chunk) pool.emplace_back(rows, r0, std::min(m, r0 + chunk));
    rows(0, std::min(m, chunk));
    for (std::thread& t : pool) t.join();
  }
  return out;
}

}  // namespace gemmtune
