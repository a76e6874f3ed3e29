#include "run/peak.hpp"

#include <algorithm>
#include <cmath>

#include "kernels/matrix_requirements.hpp"
#include "kernels/spirv.hpp"
#include "run/gemm_runner.hpp"
#include "vk/resources.hpp"

namespace gemmtune {

namespace {
constexpr uint32_t kFmaIterations = 1024;
constexpr uint32_t kPeakWorkgroup = 256;

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

struct MatrixModule {
  const char* input;
  const char* accumulator;
  uint32_t accumulators;
  std::span<const uint32_t> spirv;
  bool built = false;
};

std::vector<MatrixModule> matrix_modules() {
  std::vector<MatrixModule> out;
  for (uint32_t n : {1, 2, 4, 8, 16}) {
    const std::string a = "_a" + std::to_string(n);
    out.push_back({"f16", "f32", n, spirv_module("peak_matrix_f16" + a)});
    out.push_back({"bf16", "f32", n, spirv_module("peak_matrix_bf16" + a)});
    out.push_back({"f16", "f16", n, spirv_module("peak_matrix_f16" + a + "_h")});
  }
  out.push_back({"f16", "f32", 8, spirv_module("peak_matrix_f16_a8_r"), true});
  return out;
}

/// Whether the device runs the sweep's products for `input` with `accumulator` sums (16x16x16, subgroup scope).
bool runs_matrix(const vk::DeviceInfo& d, const std::string& input, const std::string& accumulator) {
  if (coopmat_unsupported(d, input)) return false;  // the f32-sum product and what the kernels need besides
  if (accumulator == "f32") return true;
  for (const vk::CoopmatShape& s : d.matrix.shapes) {
    if (s.m == 16 && s.n == 16 && s.k == 16 && s.a == input && s.b == input && s.c == accumulator &&
        s.result == accumulator && !s.saturating && s.scope == "subgroup")
      return true;
  }
  return false;
}

/// One point of the matrix units to measure: a module at a workgroup size.
struct MatrixPoint {
  const MatrixModule* module;
  uint32_t workgroup;
};

/// The matrix units' rate at each point, over 32768 subgroups, with A and B fragments of small non-zero values
/// loaded from a device buffer.
std::vector<MatrixRate> measure_matrix_units(const vk::Device& device, vk::Submitter& submitter, const PeakOptions& o,
                                             const std::vector<MatrixPoint>& points) {
  const vk::DeviceInfo& d = device.info();
  constexpr uint32_t kIterations = 256, kSubgroups = 32768;
  const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  // Four 16 x 16 fragments of 16-bit values in [0.25, 0.75) as f16 (other small normal numbers as bf16): never
  // zero, which can run faster than real data.
  vk::Buffer staging(device, 4 * 256 * 2, storage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
  vk::Buffer fragments(device, 4 * 256 * 2, storage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, false);
  auto* bits = static_cast<uint16_t*>(staging.mapped());
  for (uint32_t i = 0; i < 4 * 256; ++i) bits[i] = uint16_t(0x3400u + (i * 37u) % 1024u);
  submitter.run([&](VkCommandBuffer cmd) {
    const VkBufferCopy region{0, 0, 4 * 256 * 2};
    vkCmdCopyBuffer(cmd, staging.handle(), fragments.handle(), 1, &region);
    vk::record_full_barrier(cmd);
  });
  vk::Buffer out(device, uint64_t(kSubgroups) * 256 * sizeof(float), storage, false);
  PeakOptions later = o;
  later.warmup_ns = std::min(o.warmup_ns, 50'000'000.0);  // the clocks are up after the first point
  std::vector<MatrixRate> rates;
  for (const MatrixPoint& point : points) {
    const MatrixModule& m = *point.module;
    const uint32_t groups = kSubgroups / (point.workgroup / 32), groups_x = std::min(groups, 8192u);
    vk::ComputePipeline pipeline(device, m.spirv, {{0, point.workgroup}, {1, kIterations}},
                                 {fragments.handle(), out.handle()}, 0, vk::subgroup_size_to_pin(d, 32));
    const double ns = best_dispatch_ns(
        submitter,
        [&](VkCommandBuffer cmd, uint32_t repeats) {
          for (uint32_t r = 0; r < repeats; ++r) pipeline.record_dispatch(cmd, nullptr, groups_x, groups / groups_x, 1);
        },
        rates.empty() ? o : later);
    const double flop = double(kSubgroups) * kIterations * m.accumulators * 2.0 * 16 * 16 * 16;
    rates.push_back({m.input, m.accumulator, m.accumulators, point.workgroup, m.built, flop / ns / 1e3});
  }
  return rates;
}

/// The sweep's points: every module the device runs at workgroups of 32 to 256.
std::vector<MatrixPoint> sweep_points(const vk::DeviceInfo& d, const std::vector<MatrixModule>& modules) {
  std::vector<MatrixPoint> points;
  for (const MatrixModule& m : modules) {
    if (!runs_matrix(d, m.input, m.accumulator)) continue;
    for (uint32_t workgroup : {32u, 64u, 128u, 256u}) {
      if (workgroup <= d.max_invocations) points.push_back({&m, workgroup});
    }
  }
  return points;
}

/// Workgroups of peak_read.comp a dispatch: several a compute unit on the largest GPUs, so the rate is the cache's and
/// not one workgroup's latency.
constexpr uint32_t kReadGroups = 1024;

/// The cached-read rate: every workgroup reads the whole buffer once a dispatch (kernels/peak_read.comp).
void measure_cached_read(const vk::Device& device, vk::Submitter& submitter, const PeakOptions& o, PeakResult& result) {
  const vk::DeviceInfo& d = device.info();
  const uint64_t row_bytes = 8 * kPeakWorkgroup * 16;  // the kernel reads 8 rows of 256 vectors at a time
  uint64_t bytes = std::min<uint64_t>({o.read_bytes, d.max_storage_buffer_range, d.max_memory_allocation_size});
  bytes = std::max<uint64_t>(bytes / row_bytes, 1) * row_bytes;
  const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  vk::Buffer src(device, bytes, storage, false),
      dst(device, uint64_t(kReadGroups) * kPeakWorkgroup * 4, storage, false);
  const uint32_t count = uint32_t(bytes / 16);
  vk::ComputePipeline read(device, spirv_module("peak_read_f32"), {}, {src.handle(), dst.handle()}, sizeof(uint32_t));
  const double ns = best_dispatch_ns(
      submitter,
      [&](VkCommandBuffer cmd, uint32_t repeats) {
        for (uint32_t r = 0; r < repeats; ++r) read.record_dispatch(cmd, &count, kReadGroups, 1, 1);
      },
      o);
  result.cached_read_bytes = bytes;
  result.cached_read_workgroups = kReadGroups;
  result.cached_read_gbps = double(kReadGroups) * double(bytes) / ns;
}
}  // namespace

PeakResult measure_peak(const vk::Device& device, const PeakOptions& given) {
  const vk::DeviceInfo& d = device.info();
  // A CPU device has no clocks to bring up: its warm-up only wakes the driver's threads, as a tune's screening does.
  PeakOptions o = given;
  if (d.type == VK_PHYSICAL_DEVICE_TYPE_CPU)
    o.warmup_ns = std::min(o.warmup_ns, screen_warmup_target_ns(RunOptions{}, d.type, 0.0));
  const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  vk::Submitter submitter(device, o.fence_timeout_ns);
  PeakResult result;

  // FMA: enough workgroups to fill any device (a 2D grid stays within the 65535 minimum per axis).
  const uint32_t groups_x = 1024, groups_y = 4;  // 1M invocations: several waves on the largest GPUs
  const uint64_t invocations = uint64_t(groups_x) * groups_y * kPeakWorkgroup;
  vk::Buffer fma_out(device, invocations * sizeof(float), storage, false);
  struct {
    float m, c;
  } fma_push{0.9999999f, 1e-7f};
  vk::ComputePipeline fma(device, spirv_module("peak_fma_f32"), {{0, kPeakWorkgroup}, {1, kFmaIterations}},
                          {fma_out.handle()}, sizeof fma_push);
  const double fma_ns = best_dispatch_ns(
      submitter,
      [&](VkCommandBuffer cmd, uint32_t repeats) {
        for (uint32_t r = 0; r < repeats; ++r) fma.record_dispatch(cmd, &fma_push, groups_x, groups_y, 1);
      },
      o);
  result.f32_tflops = double(invocations) * kFmaIterations * 16.0 / fma_ns / 1e3;

  // Matrix units: f16 x f16 -> f32 at 16 accumulators a subgroup in workgroups of 64 (638 TFLOP/s on the H200, within
  // 0.3 % of the sweep's best: results/h200/notes.md, issue 21 step 1), or with --matrix-sweep every point.
  const std::vector<MatrixModule> modules = matrix_modules();
  if (o.matrix_sweep) {
    result.matrix_sweep = measure_matrix_units(device, submitter, o, sweep_points(d, modules));
    for (const MatrixRate& r : result.matrix_sweep) {
      if (r.input == "f16" && r.accumulator == "f32" && !r.built)
        result.coopmat_f16_tflops = std::max(result.coopmat_f16_tflops, r.tflops);
    }
  } else if (runs_matrix(d, "f16", "f32")) {
    const auto it = std::find_if(modules.begin(), modules.end(), [](const MatrixModule& m) {
      return m.input == std::string("f16") && m.accumulator == std::string("f32") && m.accumulators == 16 && !m.built;
    });
    result.coopmat_f16_tflops = measure_matrix_units(device, submitter, o, {{&*it, 64}}).front().tflops;
  }

  // Copy: two buffers as large as the device lets one binding be, up to max_copy_bytes.
  uint64_t bytes = std::min<uint64_t>({o.max_copy_bytes, d.max_storage_buffer_range, d.max_memory_allocation_size});
  bytes = bytes / 16 * 16;
  result.copy_buffer_bytes = bytes;
  vk::Buffer src(device, bytes, storage, false), dst(device, bytes, storage, false);
  const uint32_t count = uint32_t(bytes / 16);
  vk::ComputePipeline copy(device, spirv_module("peak_copy_f32"), {}, {src.handle(), dst.handle()}, sizeof(uint32_t));
  const uint32_t copy_groups =
      std::min<uint32_t>(d.max_workgroup_count[0], (count + kPeakWorkgroup - 1) / kPeakWorkgroup);
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
  if (o.read_bytes > 0) measure_cached_read(device, submitter, o, result);
  return result;
}

}  // namespace gemmtune
