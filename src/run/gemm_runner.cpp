#include "run/gemm_runner.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include "verify/reference.hpp"
#include "vk/check.hpp"

namespace gemmtune {

namespace {
constexpr VkBufferUsageFlags kStorage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
constexpr uint32_t kNaNBits = 0x7fc00000u;

uint64_t checked_mul(uint64_t a, uint64_t b, const std::string& what) {
  uint64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw Error(ExitCode::unsupported, what + ": size overflows 64 bits");
  return r;
}

struct OperandSize {
  const char* name;
  uint64_t elements, bytes;
};

std::vector<OperandSize> operand_sizes(const GemmProblem& p) {
  const Shape& s = p.shape;
  const uint64_t in_bytes = dtype_bytes(p.dtype);
  auto count = [&](const char* name, uint64_t rows, uint64_t cols, uint64_t elem_bytes) {
    uint64_t elements = checked_mul(checked_mul(rows, cols, name), s.batch, name);
    uint64_t bytes = checked_mul(elements, elem_bytes, name);
    if (elem_bytes == 2) bytes = (bytes + 3) / 4 * 4;  // packed pairs fill whole words
    return OperandSize{name, elements, bytes};
  };
  return {count("A", s.m, s.k, in_bytes), count("B", s.k, s.n, in_bytes), count("C", s.m, s.n, 4)};
}
}  // namespace

void check_problem_fits(const GemmProblem& problem, const vk::Device& device) {
  const vk::DeviceInfo& d = device.info();
  const std::string shape = problem.shape.to_string() + " " + std::string(dtype_name(problem.dtype));
  uint64_t total = 0;
  for (const OperandSize& op : operand_sizes(problem)) {
    auto refuse = [&](uint64_t needed, uint64_t limit, const std::string& unit, const std::string& limit_name) {
      return Error(ExitCode::unsupported, shape + ": operand " + op.name + " needs " + std::to_string(needed) + " " + unit +
                                              ", limit " + std::to_string(limit) + " " + unit + " (" + limit_name + ")");
    };
    if (op.elements > UINT32_MAX) throw refuse(op.elements, UINT32_MAX, "elements", "32-bit shader indexing");
    if (op.bytes > d.max_storage_buffer_range) throw refuse(op.bytes, d.max_storage_buffer_range, "B", "maxStorageBufferRange");
    if (op.bytes > d.max_memory_allocation_size) throw refuse(op.bytes, d.max_memory_allocation_size, "B", "maxMemoryAllocationSize");
    total += op.bytes;
  }
  VkDeviceSize heap = device.heap_size_for(~0u, 0);
  if (total > heap) {
    throw Error(ExitCode::unsupported, shape + ": operands need " + std::to_string(total) + " B, limit " + std::to_string(heap) +
                                           " B (largest memory heap)");
  }
}

GemmRunner::GemmRunner(const vk::Device& device, const GemmProblem& problem, const RunOptions& options)
    : device_(device),
      problem_(problem),
      options_(options),
      operands_((check_problem_fits(problem, device), make_operands(problem, options.seed))),
      reference_(reference_gemm(problem, operands_)),
      submitter_(device, options.fence_timeout_ns),
      a_(device, operands_.a_device.size(), kStorage, false),
      b_(device, operands_.b_device.size(), kStorage, false),
      c_(device, problem.shape.batch * problem.shape.m * problem.shape.n * 4, kStorage, false),
      staging_(device, std::max({a_.size(), b_.size(), c_.size()}), VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, true) {
  const Shape& s = problem.shape;
  push_ = GemmPush{uint32_t(s.m), uint32_t(s.n), uint32_t(s.k), uint32_t(s.m * s.k), uint32_t(s.k * s.n), uint32_t(s.m * s.n),
                   problem.alpha, problem.beta};
  upload(a_, operands_.a_device);
  upload(b_, operands_.b_device);
}

GemmRunner::~GemmRunner() = default;

void GemmRunner::upload(const vk::Buffer& dst, const std::vector<uint8_t>& bytes) {
  std::memcpy(staging_.mapped(), bytes.data(), bytes.size());
  submitter_.run([&](VkCommandBuffer cmd) {
    VkBufferCopy region{0, 0, bytes.size()};
    vkCmdCopyBuffer(cmd, staging_.handle(), dst.handle(), 1, &region);
  });
}

void GemmRunner::reset_c() {
  if (problem_.beta == 0.0f) return;  // poisoned in the verification command buffer instead
  std::memcpy(staging_.mapped(), operands_.c0.data(), operands_.c0.size() * sizeof(float));
  submitter_.run([&](VkCommandBuffer cmd) {
    VkBufferCopy region{0, 0, c_.size()};
    vkCmdCopyBuffer(cmd, staging_.handle(), c_.handle(), 1, &region);
  });
}

void GemmRunner::record_gemm(VkCommandBuffer cmd, const vk::ComputePipeline& pipeline, const std::array<uint64_t, 3>& grid,
                             uint32_t repeats) const {
  for (uint32_t r = 0; r < repeats; ++r) {
    if (r > 0) vk::record_full_barrier(cmd);  // each dispatch writes C: keep them ordered, as a caller's would be
    pipeline.record_dispatch(cmd, &push_, uint32_t(grid[0]), uint32_t(grid[1]), uint32_t(grid[2]));
  }
}

Measurement GemmRunner::evaluate(const KernelFamily& family, const Config& config, int warmup, int samples) {
  Measurement m;
  const std::string name = family.config_name(config, problem_.dtype);
  auto it = pipelines_.find(name);
  if (it == pipelines_.end()) {
    std::vector<vk::SpecConstant> constants{{family.workgroup_size_constant_id, family.workgroup_size(config)}};
    for (const ParamSpec& p : family.params) constants.push_back({p.constant_id, config.get(p.name)});
    auto start = std::chrono::steady_clock::now();
    try {
      auto pipeline = std::make_unique<vk::ComputePipeline>(device_, family.spirv(problem_.dtype), constants,
                                                            std::vector<VkBuffer>{a_.handle(), b_.handle(), c_.handle()},
                                                            uint32_t(sizeof(GemmPush)));
      it = pipelines_.emplace(name, std::move(pipeline)).first;
    } catch (const vk::VulkanError& e) {
      if (e.result() == VK_ERROR_DEVICE_LOST) throw;
      m.disposition = Disposition::compile_failed;
      m.detail = e.what();
      return m;
    }
    m.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }
  const vk::ComputePipeline& pipeline = *it->second;
  const auto grid = family.grid(config, problem_.shape);

  // Verification run: C poisoned with NaN (beta = 0, so C must never be read) or reset to C0.
  reset_c();
  const double verify_ns = submitter_.run_timed(
      [&](VkCommandBuffer cmd) { record_gemm(cmd, pipeline, grid); },
      [&](VkCommandBuffer cmd) {
        if (problem_.beta == 0.0f) {
          vkCmdFillBuffer(cmd, c_.handle(), 0, VK_WHOLE_SIZE, kNaNBits);
          vk::record_full_barrier(cmd);
        }
      },
      [&](VkCommandBuffer cmd) {
        vk::record_full_barrier(cmd);
        VkBufferCopy region{0, 0, c_.size()};
        vkCmdCopyBuffer(cmd, c_.handle(), staging_.handle(), 1, &region);
        vk::record_full_barrier(cmd);
      });
  last_result_.resize(c_.size() / sizeof(float));
  std::memcpy(last_result_.data(), staging_.mapped(), c_.size());
  m.error = compare_with_reference(last_result_, reference_, dtype_error_bound(problem_.dtype));
  if (!m.error.passed) {
    m.disposition = Disposition::incorrect;
    m.detail = m.error.non_finite ? std::to_string(m.error.non_finite) + " non-finite results"
                                  : "error " + std::to_string(m.error.error) + " > bound " + std::to_string(m.error.bound);
    return m;
  }

  const uint32_t repeats = uint32_t(std::clamp(std::ceil(options_.min_sample_ns / std::max(verify_ns, 1.0)), 1.0, 256.0));
  m.runs_per_sample = repeats;
  auto timed_batch = [&] {
    return submitter_.run_timed([&](VkCommandBuffer cmd) { record_gemm(cmd, pipeline, grid, repeats); }) / 1000.0 / repeats;
  };
  if (samples == 0) {
    m.samples_us.push_back(repeats == 1 ? verify_ns / 1000.0 : timed_batch());
  }
  for (int i = 0; i < warmup; ++i) submitter_.run([&](VkCommandBuffer cmd) { record_gemm(cmd, pipeline, grid, repeats); });
  for (int i = 0; i < samples; ++i) m.samples_us.push_back(timed_batch());
  if (!m.samples_us.empty()) {
    m.median_us = median_of(m.samples_us);
    m.min_us = *std::min_element(m.samples_us.begin(), m.samples_us.end());
    m.gflops = m.median_us > 0.0 ? problem_.flops() / (m.median_us * 1e3) : 0.0;
  }
  return m;
}

void GemmRunner::drop_pipeline(const std::string& name) { pipelines_.erase(name); }

}  // namespace gemmtune
