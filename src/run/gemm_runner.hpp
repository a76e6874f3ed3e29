// Runs GEMM configs of any kernel family on one problem: device buffers and the reference are made once per
// problem; each evaluation builds (or reuses) the pipeline, verifies a run on NaN-poisoned C, then times runs.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/problem.hpp"
#include "kernels/kernel_def.hpp"
#include "run/measurement.hpp"
#include "verify/operands.hpp"
#include "vk/resources.hpp"

namespace gemmtune {

/// The push-constant block every GEMM kernel declares (see kernels/gemm_tiled.comp).
struct GemmPush {
  uint32_t m, n, k;
  uint32_t stride_a, stride_b, stride_c;
  float alpha, beta;
};

struct RunOptions {
  uint64_t seed = 1;
  uint64_t fence_timeout_ns = 120'000'000'000ull;
  /// A timed sample is a batch of back-to-back dispatches lasting at least this long (at most 256 dispatches):
  /// single short dispatches measure clock ramp-up and submission gaps, not the kernel.
  double min_sample_ns = 1'000'000.0;
};

/// Byte counts of the operands, checked in 64-bit arithmetic against maxStorageBufferRange,
/// maxMemoryAllocationSize, the heap size and 32-bit shader indexing. Throws an unsupported Error (exit 3) naming
/// the operand, the bytes needed and the limit.
void check_problem_fits(const GemmProblem& problem, const vk::Device& device);

class GemmRunner {
 public:
  GemmRunner(const vk::Device& device, const GemmProblem& problem, const RunOptions& options);
  ~GemmRunner();

  const GemmProblem& problem() const { return problem_; }
  bool uses_timestamps() const { return submitter_.uses_timestamps(); }

  /// Verifies `config` on C poisoned with NaN (or reset to C0 when beta != 0), then runs `warmup` untimed and
  /// `samples` timed batches (see RunOptions::min_sample_ns; a sample is the batch time over its dispatches).
  /// With `samples` = 0 (screening) the verification run's own time is the one sample when it lasted at least
  /// min_sample_ns, else one timed batch is. Pipeline build failures give compile_failed; device faults throw.
  Measurement evaluate(const KernelFamily& family, const Config& config, int warmup, int samples);
  /// Frees the cached pipeline of a config (pipelines are kept so finalists are not rebuilt).
  void drop_pipeline(const std::string& name);
  /// The reference result (row-major, batch * M * N), for tests.
  const std::vector<double>& reference() const { return reference_; }
  /// The last verified run's C, for tests.
  const std::vector<float>& last_result() const { return last_result_; }

 private:
  void upload(const vk::Buffer& dst, const std::vector<uint8_t>& bytes);
  void reset_c();
  void record_gemm(VkCommandBuffer cmd, const vk::ComputePipeline& pipeline, const std::array<uint64_t, 3>& grid,
                   uint32_t repeats = 1) const;

  const vk::Device& device_;
  GemmProblem problem_;
  RunOptions options_;
  HostOperands operands_;
  std::vector<double> reference_;
  std::vector<float> last_result_;
  vk::Submitter submitter_;
  vk::Buffer a_, b_, c_, staging_;
  GemmPush push_{};
  std::map<std::string, std::unique_ptr<vk::ComputePipeline>> pipelines_;
};

}  // namespace gemmtune
