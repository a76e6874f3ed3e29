#include "verify/reference.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>
#include <thread>

#include "verify/parallel_rows.hpp"
#include "verify/reference_product.hpp"

namespace gemmtune {

namespace {
using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// Calls part(r0, r1, c0, c1) over the blocks of an m x n result on several threads. Eigen runs single-threaded
/// here (no OpenMP, so no libgomp at run time): the result is split instead, by rows where there are enough of them
/// for every thread, else by columns (split by rows, 512 rows would keep 8 of 16 cores busy).
template <typename Fn>
void parallel_blocks(Eigen::Index m, Eigen::Index n, Fn&& part) {
  constexpr uint64_t kLeast = 64;  // rows or columns a thread's block holds at least
  const bool by_rows = uint64_t(m) / kLeast >= std::max(1u, std::thread::hardware_concurrency()) || m >= n;
  parallel_chunks(uint64_t(by_rows ? m : n), kLeast, [&](uint64_t e0, uint64_t e1) {
    if (by_rows) {
      part(Eigen::Index(e0), Eigen::Index(e1), Eigen::Index(0), n);
    } else {
      part(Eigen::Index(0), m, Eigen::Index(e0), Eigen::Index(e1));
    }
  });
}

/// op(X) of product z as a dense double matrix (rows x cols after the transpose), its rows on several threads.
RowMajor dense_op(const std::vector<float>& image, const ResolvedOperand& op, uint64_t z, bool transposed) {
  const uint64_t zz = op.stride == 0 ? 0 : z;
  RowMajor m(Eigen::Index(transposed ? op.cols : op.rows), Eigen::Index(transposed ? op.rows : op.cols));
  parallel_blocks(Eigen::Index(op.rows), 1, [&](Eigen::Index r0, Eigen::Index r1, Eigen::Index, Eigen::Index) {
    for (uint64_t r = uint64_t(r0); r < uint64_t(r1); ++r)
      for (uint64_t c = 0; c < op.cols; ++c) {
        const double v = image[op.index(zz, r, c)];
        if (transposed) {
          m(Eigen::Index(c), Eigen::Index(r)) = v;
        } else {
          m(Eigen::Index(r), Eigen::Index(c)) = v;
        }
      }
  });
  return m;
}
}  // namespace

double reference_activation(Activation activation, double x) {
  switch (activation) {
    case Activation::none:
      return x;
    case Activation::relu:
      return x < 0.0 ? 0.0 : x;
    case Activation::gelu_erf:
      return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
    case Activation::gelu_tanh:
      return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
  }
  return x;
}

namespace {
using IntRowMajor = Eigen::Matrix<int64_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// op(X) - zero of product z as a dense int64 matrix.
IntRowMajor dense_op_minus_zero(const std::vector<float>& image, const ResolvedOperand& op, uint64_t z, bool transposed,
                                int32_t zero) {
  const RowMajor values = dense_op(image, op, z, transposed);
  return (values.cast<int64_t>().array() - int64_t(zero)).matrix();
}

/// The integer product: sums of (a - za) * (b - zb) in int64 (exact: |terms| <= 255 * 255, K < 2^31), then
/// wrapped to int32 as two's-complement arithmetic would.
std::vector<double> reference_integer_gemm(const GemmProblem& problem, const HostOperands& ops) {
  const Shape& s = problem.shape;
  const ResolvedGemm& l = ops.layout;
  std::vector<double> out(s.batch * s.m * s.n, 0.0);
  const Eigen::Index m = Eigen::Index(s.m);
  for (uint64_t z = 0; z < s.batch; ++z) {
    const IntRowMajor a = dense_op_minus_zero(ops.a, l.a, z, problem.layout.trans_a, problem.zero_a);
    const IntRowMajor b = dense_op_minus_zero(ops.b, l.b, z, problem.layout.trans_b, problem.zero_b);
    IntRowMajor c(m, Eigen::Index(s.n));
    parallel_blocks(m, Eigen::Index(s.n), [&](Eigen::Index r0, Eigen::Index r1, Eigen::Index c0, Eigen::Index c1) {
      c.block(r0, c0, r1 - r0, c1 - c0).noalias() = a.middleRows(r0, r1 - r0) * b.middleCols(c0, c1 - c0);
    });
    for (uint64_t i = 0; i < s.m; ++i)
      for (uint64_t j = 0; j < s.n; ++j)
        out[(z * s.m + i) * s.n + j] = double(wrap_to_int32(c(Eigen::Index(i), Eigen::Index(j))));
  }
  return out;
}
}  // namespace

int32_t wrap_to_int32(int64_t v) { return int32_t(uint32_t(uint64_t(v) & 0xffffffffu)); }

std::vector<double> reference_gemm(const GemmProblem& problem, const HostOperands& ops) {
  if (is_integer(problem.dtype)) return reference_integer_gemm(problem, ops);
  const Shape& s = problem.shape;
  const ResolvedGemm& l = ops.layout;
  const Eigen::Index m = Eigen::Index(s.m), n = Eigen::Index(s.n);
  std::vector<double> out(s.batch * s.m * s.n, 0.0);
  for (uint64_t z = 0; z < s.batch; ++z) {
    Eigen::Map<RowMajor> c(out.data() + z * s.m * s.n, m, n);
    if (problem.alpha != 0.0f) {  // alpha = 0: A and B hold NaN and must not contribute
      const RowMajor a = dense_op(ops.a, l.a, z, problem.layout.trans_a);
      const RowMajor b = dense_op(ops.b, l.b, z, problem.layout.trans_b);
      const DenseProduct product{a.data(), b.data(), c.data(), m, n, a.cols(), double(problem.alpha)};
      const ProductBlockFn block = reference_product_block();
      parallel_blocks(m, n, [&](Eigen::Index r0, Eigen::Index r1, Eigen::Index c0, Eigen::Index c1) {
        block(product, r0, r1, c0, c1);
      });
    }
    for (uint64_t i = 0; i < s.m; ++i)
      for (uint64_t j = 0; j < s.n; ++j) {
        double v = c(Eigen::Index(i), Eigen::Index(j));
        if (problem.beta != 0.0f) v += double(problem.beta) * double(ops.c0[l.c.index(z, i, j)]);
        if (problem.epilogue.bias) v += double(ops.bias[l.bias_extent - s.n + j]);
        c(Eigen::Index(i), Eigen::Index(j)) = reference_activation(problem.epilogue.activation, v);
      }
  }
  return out;
}

GatheredResult gather_result(const GemmProblem& problem, const HostOperands& ops, const std::vector<float>& image) {
  const Shape& s = problem.shape;
  const ResolvedOperand& c = ops.layout.c;
  GatheredResult g;
  g.values.resize(s.batch * s.m * s.n);
  std::vector<uint8_t> in_region(image.size(), 0);
  // Rows of C on every core (each element of the region has its own index), then the rest of the buffer in chunks
  // whose counts add up and whose first changed index is the least of theirs.
  parallel_chunks(s.batch * s.m, std::max<uint64_t>(1, (1u << 16) / std::max<uint64_t>(1, s.n)),
                  [&](uint64_t begin, uint64_t end) {
                    for (uint64_t row = begin; row < end; ++row)
                      for (uint64_t j = 0; j < s.n; ++j) {
                        const uint64_t idx = c.index(row / s.m, row % s.m, j);
                        g.values[row * s.n + j] = image[idx];
                        in_region[idx] = 1;
                      }
                  });
  std::mutex m;
  g.first_touched = image.size();
  parallel_chunks(image.size(), 1u << 16, [&](uint64_t begin, uint64_t end) {
    uint64_t touched = 0, first = image.size();
    for (uint64_t idx = begin; idx < end; ++idx) {
      if (in_region[idx]) continue;
      uint32_t bits;
      std::memcpy(&bits, &image[idx], 4);
      if (bits != kUntouchedBits) {
        if (touched == 0) first = idx;
        ++touched;
      }
    }
    const std::lock_guard<std::mutex> lock(m);
    g.touched += touched;
    g.first_touched = std::min(g.first_touched, first);
  });
  if (g.touched == 0) g.first_touched = 0;
  return g;
}

}  // namespace gemmtune
