// GemmRunner's resources: the problem's buffers (guard bands, cold copies), uploads, bindings and the recorded runs.
#include "run/gemm_runner.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>

#include "core/elapsed.hpp"
#include "run/clock_keeper.hpp"
#include "run/gemm_runner_phases.hpp"
#include "verify/reference.hpp"
#include "vk/check.hpp"

namespace gemmtune {

namespace {

uint64_t padded_bytes(uint64_t elements, unsigned elem_bytes) { return (elements * elem_bytes + 3) / 4 * 4; }

struct BufferNeed {
  const char* name;
  uint64_t elements, bytes;
};

/// Elements from one copy of an input image to the next: whole 32-byte units, so every copy keeps the
/// 16-byte row alignment of the first; whole blocks for a quantized B.
uint64_t copy_pitch(uint64_t elements, DType dtype = DType::f32, bool is_b = false) {
  if (is_b && is_quantized(dtype)) return (elements + kBlockElements - 1) / kBlockElements * kBlockElements;
  return (elements + 15) / 16 * 16;
}
/// Bytes of a copy pitch (exact: a quantized B's copies are whole blocks apart, 2-byte aligned).
uint64_t pitch_bytes(uint64_t pitch, DType dtype, bool is_b) {
  if (is_b && is_quantized(dtype)) return block_row_bytes(*b_block_format(dtype), pitch);
  return pitch * dtype_bytes(dtype);
}

std::vector<BufferNeed> buffer_needs(const GemmProblem& p, uint64_t guard, uint64_t copies) {
  const ResolvedGemm l = resolve(with_guard(p, guard));
  const uint64_t a = copies > 1 ? copy_pitch(l.a.extent + guard) * copies : l.a.extent + guard;
  const uint64_t b = copies > 1 ? copy_pitch(l.b.extent + guard, p.dtype, true) * copies : l.b.extent + guard;
  std::vector<BufferNeed> out = {
      {"A", a, operand_bytes(p.dtype, false, a)},
      // + 4: the last cold copy of a quantized B, 2-byte aligned, ends with its image's padding
      {"B", b, operand_bytes(p.dtype, true, b) + (copies > 1 && is_quantized(p.dtype) ? 4 : 0)},
      {"C", l.c.extent + guard, padded_bytes(l.c.extent + guard, 4)}};
  if (p.epilogue.bias) out.push_back({"bias", l.bias_extent + guard, padded_bytes(l.bias_extent + guard, 4)});
  return out;
}

/// `make()`, its time kept in `seconds` and the debug log: where a large problem's preparation goes.
template <typename Make>
auto timed_part(const char* what, double& seconds, Make&& make) {
  const auto start = std::chrono::steady_clock::now();
  auto made = make();
  seconds = preparation_part_s(what, start);
  return made;
}

}  // namespace

double preparation_part_s(const char* what, std::chrono::steady_clock::time_point start) {
  const double ms = ms_since(start);
  spdlog::debug("preparation: {} in {:.0f} ms", what, ms);
  return ms / 1000.0;
}

uint64_t input_copies(const GemmProblem& problem, const RunOptions& options, uint64_t max_buffer_bytes) {
  if (options.cold_bytes == 0) return 1;
  const ResolvedGemm l = resolve(with_guard(problem, options.guard));
  const uint64_t a = pitch_bytes(copy_pitch(l.a.extent + options.guard), problem.dtype, false);
  const uint64_t b = pitch_bytes(copy_pitch(l.b.extent + options.guard, problem.dtype, true), problem.dtype, true);
  const uint64_t wanted = std::max<uint64_t>(2, (options.cold_bytes + a + b - 1) / (a + b));
  const uint64_t fit = std::max<uint64_t>(2, std::min(max_buffer_bytes / a, max_buffer_bytes / b));
  return std::min(wanted, fit);
}

namespace {
uint64_t largest_buffer(const vk::Device& device) {
  return std::min({uint64_t(device.info().max_storage_buffer_range), device.info().max_memory_allocation_size,
                   device.info().max_buffer_size});
}
}  // namespace

void check_problem_fits(const GemmProblem& problem, const vk::Device& device, uint64_t guard, uint64_t copies) {
  const vk::DeviceInfo& d = device.info();
  const std::string shape = problem.shape.to_string() + " " + std::string(dtype_name(problem.dtype));
  uint64_t total = 0;
  for (const BufferNeed& need : buffer_needs(problem, guard, copies)) {
    auto refuse = [&](uint64_t needed, uint64_t limit, const std::string& unit, const std::string& limit_name) {
      return Error(ExitCode::unsupported, shape + ": operand " + need.name + " needs " + std::to_string(needed) + " " +
                                              unit + ", limit " + std::to_string(limit) + " " + unit + " (" +
                                              limit_name + ")");
    };
    if (need.elements > UINT32_MAX) throw refuse(need.elements, UINT32_MAX, "elements", "32-bit shader indexing");
    if (need.bytes > d.max_storage_buffer_range)
      throw refuse(need.bytes, d.max_storage_buffer_range, "B", "maxStorageBufferRange");
    if (need.bytes > d.max_memory_allocation_size)
      throw refuse(need.bytes, d.max_memory_allocation_size, "B", "maxMemoryAllocationSize");
    if (need.bytes > d.max_buffer_size) throw refuse(need.bytes, d.max_buffer_size, "B", "maxBufferSize");
    total += need.bytes;
  }
  const VkDeviceSize heap = device.heap_size_for(~0u, 0);
  if (total > heap) {
    throw Error(ExitCode::unsupported, shape + ": operands need " + std::to_string(total) + " B, limit " +
                                           std::to_string(heap) + " B (largest memory heap)");
  }
}

std::vector<uint64_t> GemmRunner::input_binding_bytes(const GemmProblem& problem, const RunOptions& options,
                                                      const vk::Device& device) {
  const std::vector<BufferNeed> needs =
      buffer_needs(problem, options.guard, input_copies(problem, options, largest_buffer(device)));
  return {needs[0].bytes, needs[1].bytes, needs[2].bytes, needs.size() > 3 ? needs[3].bytes : 16};
}

GemmRunner::GemmRunner(const vk::Device& device, const GemmProblem& problem, const RunOptions& options)
    : device_(device),
      problem_(problem),
      options_(options),
      keeper_(make_keeper(device, options_, true)),
      operands_(
          (check_problem_fits(problem, device, options.guard, input_copies(problem, options, largest_buffer(device))),
           timed_part("operands", preparation_.operands_s,
                      [&] { return make_operands(problem, options.seed, options.guard, options.fill); }))),
      reference_(
          timed_part("host reference", preparation_.reference_s, [&] { return reference_gemm(problem, operands_); })),
      submitter_(device, options.fence_timeout_ns),
      a_(device, buffer_needs(problem, options.guard, input_copies(problem, options, largest_buffer(device)))[0].bytes,
         vk::kStorageBufferUsage, false),
      b_(device, buffer_needs(problem, options.guard, input_copies(problem, options, largest_buffer(device)))[1].bytes,
         vk::kStorageBufferUsage, false),
      c_(device, operands_.c0.size() * 4, vk::kStorageBufferUsage, false),
      bias_(device, std::max<size_t>(16, operands_.bias.size() * 4), vk::kStorageBufferUsage, false),
      staging_(device, std::max({operands_.a_device.size(), operands_.b_device.size(), c_.size(), bias_.size()}),
               VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, true),
      dummy_(device, 16, vk::kStorageBufferUsage, false) {
  release_clocks();  // the queue is the runner's from here: the uploads
  const auto uploads_start = std::chrono::steady_clock::now();
  operation_ = operation_of(problem, operands_.layout);
  push_ = rules::push_constants(operation_, 1);
  copies_ = input_copies(problem, options, largest_buffer(device));
  if (copies_ > 1) {
    const unsigned in = dtype_bytes(problem.dtype);
    a_copy_ = copy_pitch(operands_.a_device.size() / in);
    b_copy_ = is_quantized(problem.dtype) ? copy_pitch(operands_.b.size(), problem.dtype, true)
                                          : copy_pitch(operands_.b_device.size() / in);
    spdlog::debug("cold runs: {} copies of A and B ({} MB)", copies_, (a_.size() + b_.size()) >> 20);
  }
  // Every copy holds the same image, so any run verifies against the one reference.
  upload(a_, operands_.a_device.data(), operands_.a_device.size());
  upload(b_, operands_.b_device.data(), operands_.b_device.size());
  if (copies_ > 1) {
    replicate_copies(a_, operands_.a_device.size(), pitch_bytes(a_copy_, problem.dtype, false));
    replicate_copies(b_, operands_.b_device.size(), pitch_bytes(b_copy_, problem.dtype, true));
  }
  if (!operands_.bias.empty()) upload(bias_, operands_.bias.data(), operands_.bias.size() * 4);
  preparation_.uploads_s = preparation_part_s("uploads", uploads_start);
}

GemmRunner::~GemmRunner() = default;

void GemmRunner::upload(const vk::Buffer& dst, const void* data, size_t bytes, VkDeviceSize dst_offset) {
  std::memcpy(staging_.mapped(), data, bytes);
  submitter_.run([&](VkCommandBuffer cmd) {
    VkBufferCopy region{0, dst_offset, bytes};
    vkCmdCopyBuffer(cmd, staging_.handle(), dst.handle(), 1, &region);
  });
}

void GemmRunner::replicate_copies(const vk::Buffer& buffer, VkDeviceSize image_bytes, VkDeviceSize pitch_bytes) {
  // Copy 0 is in place; each step copies the copies made so far to the next ones (1, 2, 4, ... at once), on the
  // device in one submission: a small problem has up to millions of copies, one upload each took minutes.
  submitter_.run([&](VkCommandBuffer cmd) {
    for (uint64_t done = 1; done < copies_;) {
      const uint64_t n = std::min(done, copies_ - done);
      const VkBufferCopy region{0, done * pitch_bytes, (n - 1) * pitch_bytes + image_bytes};
      vkCmdCopyBuffer(cmd, buffer.handle(), buffer.handle(), 1, &region);
      vk::record_full_barrier(cmd);
      done += n;
    }
  });
}

std::vector<VkBuffer> GemmRunner::bindings() const {
  return {a_.handle(),
          b_.handle(),
          c_.handle(),
          bias_.handle(),
          scratch_ ? scratch_->handle() : dummy_.handle(),
          arrivals_ ? arrivals_->handle() : dummy_.handle()};
}

void GemmRunner::prepare_split_buffers(const KernelFamily& family, const Config& config) {
  const rules::Plan plan = rules::plan(kernel_config(family, config, problem_.dtype), operation_);
  if (plan.scratch_floats > 0) ensure_scratch(plan.scratch_floats);
  if (plan.arrival_counters > 0) ensure_arrivals(plan.arrival_counters);
}

void GemmRunner::ensure_arrivals(uint64_t count) {
  if (arrivals_ && arrivals_->size() >= count * 4) return;
  arrivals_.reset();
  arrivals_.emplace(device_, std::max<uint64_t>(16, count * 4), vk::kStorageBufferUsage, false);
  arrivals_owner_.clear();  // new memory holds no known counts: the next config to run zeroes it
}

void GemmRunner::bind_passes(const KernelFamily& family, const Config& config, const Passes& passes) {
  // Every completed run leaves the arrival counters at zero; a config that did not (a wrong kernel) must not
  // leave its counts to the next. The same config's next run verifies on the counters its own runs left.
  if (passes.arrival_counters > 0) {
    ensure_arrivals(passes.arrival_counters);
    const std::string name = family.config_name(config, problem_.dtype);
    if (arrivals_owner_ != name) {
      submitter_.run([&](VkCommandBuffer cmd) { vkCmdFillBuffer(cmd, arrivals_->handle(), 0, VK_WHOLE_SIZE, 0); });
      arrivals_owner_ = name;
    }
  }
  for (uint32_t i = 0; i < passes.plan.pass_count; ++i) passes.pass_pipelines[i]->bind(bindings());
}

void GemmRunner::ensure_scratch(uint64_t floats) {
  if (scratch_ && scratch_->size() >= floats * 4) return;
  scratch_.reset();
  scratch_.emplace(device_, floats * 4, vk::kStorageBufferUsage, false);
}

void GemmRunner::record_grid(VkCommandBuffer cmd, const vk::ComputePipeline& pipeline, std::array<uint64_t, 3> grid,
                             GemmPush push) const {
  // Grids past maxComputeWorkGroupCount are split into several dispatches; base_* tells each where it starts.
  const auto& max = device_.info().max_workgroup_count;
  rules::for_each_dispatch(
      grid, {max[0], max[1], max[2]},
      [&](uint32_t x, uint32_t y, uint32_t z, uint32_t count_x, uint32_t count_y, uint32_t count_z) {
        push.base_x = x, push.base_y = y, push.base_z = z;
        pipeline.record_dispatch(cmd, &push, count_x, count_y, count_z);
      });
}

void GemmRunner::record_run(VkCommandBuffer cmd, const Passes& passes, uint32_t repeats) {
  const rules::Plan& plan = passes.plan;
  for (uint32_t r = 0; r < repeats; ++r) {
    // Each run writes C: keep runs ordered, as a caller's would be, with the barrier a caller chaining dispatches
    // records (results/h200/notes.md, step 14). Copies before and after a batch carry full barriers of their own.
    if (r > 0) vk::record_compute_barrier(cmd);
    // Cold runs: the rotation carries on across batches, so a batch never starts on recently read copies.
    const uint64_t copy = next_copy_++ % copies_;
    for (uint32_t i = 0; i < plan.pass_count; ++i) {
      const rules::Pass& pass = plan.passes[i];
      if (i > 0) vk::record_compute_barrier(cmd);
      GemmPush push = pass.push;
      push.off_a = uint32_t(push.off_a + copy * a_copy_);
      push.off_b = uint32_t(push.off_b + copy * b_copy_);
      record_grid(cmd, *passes.pass_pipelines[i], pass.grid, push);
    }
  }
}

}  // namespace gemmtune
