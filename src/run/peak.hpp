// The device's own ceilings, measured with small kernels of gemmtune's and timestamps: the f32 FMA rate, the
// cooperative-matrix f16 rate (where the device qualifies for the coopmat variant), the copy bandwidth (bytes read
// plus written) and, when asked, the rate of reading a buffer that stays in the cache.
#pragma once

#include <string>
#include <vector>

#include "vk/device.hpp"

namespace gemmtune {

/// One point of the matrix-unit sweep (`gemmtune peak --matrix-sweep`, kernels/peak_matrix.comp).
struct MatrixRate {
  std::string input;          ///< "f16" or "bf16"
  std::string accumulator;    ///< "f32" or "f16"
  uint32_t accumulators = 0;  ///< independent 16 x 16 accumulators a subgroup
  uint32_t workgroup = 0;     ///< invocations a workgroup
  bool built = false;  ///< each product's A fragment built from registers element by element (rowmma's register path)
  double tflops = 0.0;
};

struct PeakResult {
  double f32_tflops = 0.0;
  double coopmat_f16_tflops = 0.0;  ///< 0 where the device has no qualifying cooperative matrices
  double copy_gbps = 0.0;           ///< GB/s (1e9 bytes), read plus written
  uint64_t copy_buffer_bytes = 0;   ///< size of each of the two copy buffers
  /// With PeakOptions::read_bytes: GB/s at which workgroups read a buffer of that size that stays in the cache.
  double cached_read_gbps = 0.0;
  uint64_t cached_read_bytes = 0;
  uint32_t cached_read_workgroups = 0;  ///< each read the whole buffer once a dispatch
  /// With PeakOptions::matrix_sweep: every point the device runs; coopmat_f16_tflops is then the best f16 -> f32.
  std::vector<MatrixRate> matrix_sweep;
};

struct PeakOptions {
  double min_sample_ns = 2'000'000.0;  ///< a sample is a batch of dispatches lasting at least this long
  double warmup_ns = 200'000'000.0;    ///< back-to-back work before the samples (clocks ramp up; CPU devices 20 ms)
  int samples = 7;                     ///< the best sample is reported: a ceiling, not a typical value
  uint64_t max_copy_bytes = 256ull << 20;
  uint64_t read_bytes = 0;  ///< > 0: also the cached-read rate at about this size (kernels/peak_read.comp)
  uint64_t fence_timeout_ns = 120'000'000'000ull;
  /// Sweep the matrix units: 1 to 16 accumulators a subgroup, workgroups of 32 to 256, f16 and bf16 inputs with f32
  /// sums and f16 with f16 sums, where the device lists them.
  bool matrix_sweep = false;
};

PeakResult measure_peak(const vk::Device& device, const PeakOptions& given);

}  // namespace gemmtune
