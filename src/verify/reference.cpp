#include "verify/reference.hpp"

#include <Eigen/Dense>

namespace gemmtune {

std::vector<double> reference_gemm(const GemmProblem& problem, const HostOperands& ops) {
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using RowMajorF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Shape& s = problem.shape;
  const Eigen::Index m = Eigen::Index(s.m), n = Eigen::Index(s.n), k = Eigen::Index(s.k);
  std::vector<double> out(s.batch * s.m * s.n);
  for (uint64_t z = 0; z < s.batch; ++z) {
    RowMajor a = Eigen::Map<const RowMajorF>(ops.a.data() + z * s.m * s.k, m, k).cast<double>();
    RowMajor b = Eigen::Map<const RowMajorF>(ops.b.data() + z * s.k * s.n, k, n).cast<double>();
    Eigen::Map<RowMajor> c(out.data() + z * s.m * s.n, m, n);
    c.noalias() = double(problem.alpha) * (a * b);
    if (problem.beta != 0.0f) {
      c += double(problem.beta) * Eigen::Map<const RowMajorF>(ops.c0.data() + z * s.m * s.n, m, n).cast<double>();
    }
  }
  return out;
}

}  // namespace gemmtune
