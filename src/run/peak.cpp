#include "run/peak.hpp"

#include <algorithm>
#include <cmath>

#include "kernels/matrix_requirements.hpp"
#include "peak_coopmat_f16.h"
#include "peak_copy_f32.h"
#include "peak_fma_f32.h"
#include "vk/resources.hpp"

namespace gemmtune {

namespace {
constexpr uint32_t kFmaIterations = 1024;
constexpr uint32_t kWorkgroup = 256;

template <size_t N>
std::span<const uint32_t> words(const uint32_t (&array)[N]) {
  return {array, N};
}

/// Warms up, then returns the best per-dispatch time (ns) over the samples; `record(cmd, repeats)` records
/// `repeats` dispatches.
double best_dispatch_ns(vk::Submitter& submitter, const std::function<void(VkCommandBuffer, uint32_t)>& record,
                        const PeakOptions& o) {
  auto timed = [&](uint32_t repeats) {
    return submitter.run_timed([&](VkCommandBuffer cmd) { record(cmd, repeats); }) / repeats;
  };
  double per = timed(1);
  auto repeats_for = [&](double target) {
    return uint32_t(std::clamp(std::ceil(target / std::max(per, 1.0)), 1.0, 4096.0));
  };
  for (double warm = 0.0; warm < o.warmup_ns;) {
    const uint32_t r = repeats_for(std::min(o.warmup_ns - warm, 4 * o.min_sample_ns));
    per = timed(r);
    warm += per * r;
  }
  double best = 0.0;
  for (int i = 0; i < o.samples; ++i) {
    const double t = timed(repeats_for(o.min_sample_ns));
    best = (i == 0) ? t : std::min(best, t);
  }
  return best;
}
}  // namespace

PeakResult measure_peak(const vk::Device& device, const PeakOptions& o) {
  const vk::DeviceInfo& d = device.info();
  const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  vk::Submitter submitter(device, o.fence_timeout_ns);
  PeakResult result;

  // FMA: enough workgroups to fill any device (a 2D grid stays within the 65535 minimum per axis).
  const uint32_t groups_x = 1024, groups_y = 4;  // 1M invocations: several waves on the largest GPUs
  const uint64_t invocations = uint64_t(groups_x) * groups_y * kWorkgroup;
  vk::Buffer fma_out(device, invocations * sizeof(float), storage, false);
  struct {
    float m, c;
  } fma_push{0.9999999f, 1e-7f};
  vk::ComputePipeline fma(device, words(spirv_peak_fma_f32), {{0, kWorkgroup}, {1, kFmaIterations}}, {fma_out.handle()},
                          sizeof fma_push);
  const double fma_ns = best_dispatch_ns(
      submitter,
      [&](VkCommandBuffer cmd, uint32_t repeats) {
        for (uint32_t r = 0; r < repeats; ++r) fma.record_dispatch(cmd, &fma_push, groups_x, groups_y, 1);
      },
      o);
  result.f32_tflops = double(invocations) * kFmaIterations * 16.0 / fma_ns / 1e3;

  // Matrix units: the same grid, 8 subgroups of 32 per workgroup, 8 products of 16 x 16 x 16 per iteration.
  if (!coopmat_unsupported(d, "f16")) {
    constexpr uint32_t kMatrixIterations = 256;
    const uint64_t subgroups = uint64_t(groups_x) * groups_y * (kWorkgroup / 32);
    vk::Buffer mma_out(device, subgroups * 256 * sizeof(float), storage, false);
    struct {
      float a, b;
    } mma_push{0.01f, 0.02f};
    vk::ComputePipeline mma(device, words(spirv_peak_coopmat_f16), {{0, kWorkgroup}, {1, kMatrixIterations}},
                            {mma_out.handle()}, sizeof mma_push, vk::subgroup_size_to_pin(d, 32));
    const double mma_ns = best_dispatch_ns(
        submitter,
        [&](VkCommandBuffer cmd, uint32_t repeats) {
          for (uint32_t r = 0; r < repeats; ++r) mma.record_dispatch(cmd, &mma_push, groups_x, groups_y, 1);
        },
        o);
    result.coopmat_f16_tflops = double(subgroups) * kMatrixIterations * 8.0 * 2.0 * 16 * 16 * 16 / mma_ns / 1e3;
  }

  // Copy: two buffers as large as the device lets one binding be, up to max_copy_bytes.
  uint64_t bytes = std::min<uint64_t>({o.max_copy_bytes, d.max_storage_buffer_range, d.max_memory_allocation_size});
  bytes = bytes / 16 * 16;
  result.copy_buffer_bytes = bytes;
  vk::Buffer src(device, bytes, storage, false), dst(device, bytes, storage, false);
  const uint32_t count = uint32_t(bytes / 16);
  vk::ComputePipeline copy(device, words(spirv_peak_copy_f32), {}, {src.handle(), dst.handle()}, sizeof(uint32_t));
  const uint32_t copy_groups = std::min<uint32_t>(d.max_workgroup_count[0], (count + kWorkgroup - 1) / kWorkgroup);
  const double copy_ns = best_dispatch_ns(
      submitter,
      [&](VkCommandBuffer cmd, uint32_t repeats) {
        for (uint32_t r = 0; r < repeats; ++r) {
          if (r > 0) vk::record_full_barrier(cmd);
          copy.record_dispatch(cmd, &count, copy_groups, 1, 1);
        }
      },
      o);
  result.copy_gbps = 2.0 * double(bytes) / copy_ns;
  return result;
}

}  // namespace gemmtune
