#include "run/device_check.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "kernels/spirv.hpp"
#include "verify/metric.hpp"

namespace gemmtune {

namespace {
constexpr uint32_t kOutside = 0xffffffffu;  // check_result.comp's OUTSIDE
constexpr uint32_t kResultWords = 6;

struct CheckPush {
  uint32_t count;
  float rel_floor;
  uint32_t integer;
};

/// Per element of C's buffer: (hi, lo) of the reference in the written region, (0, OUTSIDE) elsewhere.
std::vector<uint32_t> expected_image(const GemmProblem& problem, const HostOperands& ops,
                                     const std::vector<double>& reference) {
  std::vector<uint32_t> image(ops.c0.size() * 2, 0);
  for (size_t i = 0; i < ops.c0.size(); ++i) image[2 * i + 1] = kOutside;
  const Shape& s = problem.shape;
  for (uint64_t z = 0; z < s.batch; ++z)
    for (uint64_t i = 0; i < s.m; ++i)
      for (uint64_t j = 0; j < s.n; ++j) {
        const double ref = reference[(z * s.m + i) * s.n + j];
        const uint64_t idx = ops.layout.c.index(z, i, j);
        if (is_integer(problem.dtype)) {
          image[2 * idx] = uint32_t(int32_t(ref));  // the wrapped exact sum, as C holds it
          image[2 * idx + 1] = 0;
        } else {
          const float hi = float(ref);
          image[2 * idx] = std::bit_cast<uint32_t>(hi);
          image[2 * idx + 1] = std::bit_cast<uint32_t>(float(ref - double(hi)));
        }
      }
  return image;
}

/// A host-visible buffer holding `bytes` of `data`, to be copied into a device buffer.
vk::Buffer staged(const vk::Device& device, const void* data, size_t bytes) {
  vk::Buffer staging(device, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
  std::memcpy(staging.mapped(), data, bytes);
  return staging;
}
}  // namespace

bool DeviceCheck::fits(const vk::Device& device, uint64_t c_elements) {
  const vk::DeviceInfo& d = device.info();
  const uint64_t bytes = c_elements * 8;
  return c_elements < UINT32_MAX && bytes <= d.max_storage_buffer_range && bytes <= d.max_memory_allocation_size &&
         bytes <= d.max_buffer_size;
}

DeviceCheck::DeviceCheck(const vk::Device& device, vk::Submitter& submitter, const GemmProblem& problem,
                         const HostOperands& operands, const std::vector<double>& reference, const vk::Buffer& c,
                         const std::function<void()>& before_uploads)
    : c_(c),
      count_(operands.c0.size()),
      integer_(is_integer(problem.dtype)),
      initial_(device, count_ * 4, vk::kStorageBufferUsage, false),
      expected_(device, count_ * 8, vk::kStorageBufferUsage, false),
      result_(device, kResultWords * 4, vk::kStorageBufferUsage, true),
      pipeline_(device, check_result_spirv(), {}, {c.handle(), expected_.handle(), result_.handle()},
                uint32_t(sizeof(CheckPush))) {
  max_ref_ = largest_magnitude(reference);
  rel_floor_ = float(1e-3 * max_ref_);
  // The host's part, the staging copies included (1.6 GB at 2048x2048x128x32), comes before the queue is needed.
  const vk::Buffer initial = staged(device, operands.c0.data(), count_ * 4);
  const vk::Buffer expected = [&] {
    const std::vector<uint32_t> image = expected_image(problem, operands, reference);
    return staged(device, image.data(), image.size() * 4);
  }();
  before_uploads();
  submitter.run([&](VkCommandBuffer cmd) {
    const VkBufferCopy initial_region{0, 0, count_ * 4}, expected_region{0, 0, count_ * 8};
    vkCmdCopyBuffer(cmd, initial.handle(), initial_.handle(), 1, &initial_region);
    vkCmdCopyBuffer(cmd, expected.handle(), expected_.handle(), 1, &expected_region);
  });
}

void DeviceCheck::record_reset(VkCommandBuffer cmd) const {
  const VkBufferCopy region{0, 0, count_ * 4};
  vkCmdCopyBuffer(cmd, initial_.handle(), c_.handle(), 1, &region);
  vkCmdFillBuffer(cmd, result_.handle(), 0, 16, 0);
  vkCmdFillBuffer(cmd, result_.handle(), 16, 4, 0xffffffffu);  // first_touched: none yet
  vkCmdFillBuffer(cmd, result_.handle(), 20, 4, 0);
  vk::record_full_barrier(cmd);
}

void DeviceCheck::record_check(VkCommandBuffer cmd) const {
  vk::record_full_barrier(cmd);
  const CheckPush push{uint32_t(count_), rel_floor_, integer_ ? 1u : 0u};
  // Enough workgroups to fill a large GPU, each folding a stretch of elements before its atomics.
  const uint32_t groups = uint32_t(std::clamp<uint64_t>((count_ + 1023) / 1024, 1, 2048));
  pipeline_.record_dispatch(cmd, &push, groups, 1, 1);
  vk::record_full_barrier(cmd);
}

DeviceVerdict DeviceCheck::verdict(double bound) const {
  uint32_t w[kResultWords];
  std::memcpy(w, result_.mapped(), sizeof w);
  DeviceVerdict v;
  ErrorStats& e = v.error;
  e.bound = integer_ ? 0.0 : bound;
  e.non_finite = w[2];
  const double max_diff = double(std::bit_cast<float>(w[0]));
  e.elementwise_rel = double(std::bit_cast<float>(w[1]));
  v.touched = w[3];
  v.first_touched = w[3] > 0 ? w[4] : 0;
  if (integer_) {
    e.error = max_ref_ > 0.0 ? max_diff / max_ref_ : max_diff;
    e.passed = w[5] == 0;
  } else {
    e.error =
        e.non_finite > 0 ? std::numeric_limits<double>::infinity() : (max_ref_ > 0.0 ? max_diff / max_ref_ : max_diff);
    e.passed = e.non_finite == 0 && e.error <= bound;
  }
  return v;
}

}  // namespace gemmtune
