// The device's own ceilings, measured with small kernels of gemmtune's and timestamps: the f32 FMA rate, the
// cooperative-matrix f16 rate (where the device qualifies for the coopmat variant) and the copy bandwidth
// (bytes read plus written).
#pragma once

#include "vk/device.hpp"

namespace gemmtune {

struct PeakResult {
  double f32_tflops = 0.0;
  double coopmat_f16_tflops = 0.0;  ///< 0 where the device has no qualifying cooperative matrices
  double copy_gbps = 0.0;           ///< GB/s (1e9 bytes), read plus written
  uint64_t copy_buffer_bytes = 0;   ///< size of each of the two copy buffers
};

struct PeakOptions {
  double min_sample_ns = 2'000'000.0;  ///< a sample is a batch of dispatches lasting at least this long
  double warmup_ns = 200'000'000.0;    ///< back-to-back work before the samples (clocks ramp up)
  int samples = 7;                     ///< the best sample is reported: a ceiling, not a typical value
  uint64_t max_copy_bytes = 256ull << 20;
  uint64_t fence_timeout_ns = 120'000'000'000ull;
};

PeakResult measure_peak(const vk::Device& device, const PeakOptions& options);

}  // namespace gemmtune
