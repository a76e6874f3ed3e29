// Screening's verification on the device (kernels/check_result.comp): the reference, as two floats an element, and
// the untouched bits of the rest of C's buffer are uploaded once a problem; a check is one dispatch after the run
// and six words read back, where the host check reads C back and walks it. A refusal is always checked again on the
// host (the runner), which says where the result is wrong.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/measurement.hpp"
#include "core/problem.hpp"
#include "verify/operands.hpp"
#include "vk/resources.hpp"

namespace gemmtune {

struct DeviceVerdict {
  ErrorStats error;      ///< as compare_with_reference (compare_exact_int32) gives them; worst_index unknown (0)
  uint64_t touched = 0;  ///< elements outside the written region that changed
  uint64_t first_touched = 0;
  bool passed() const { return error.passed && touched == 0; }
};

class DeviceCheck {
 public:
  /// Whether the expected image (8 bytes an element of C's buffer) fits one storage buffer of the device.
  static bool fits(const vk::Device& device, uint64_t c_elements);
  /// Makes the expected image of `c`'s buffer (`operands.c0`'s size) on the host, calls `before_uploads` (the queue
  /// is then needed: a caller keeping the clocks up meanwhile lets go of it there), and uploads it through
  /// `submitter`.
  DeviceCheck(const vk::Device& device, vk::Submitter& submitter, const GemmProblem& problem,
              const HostOperands& operands, const std::vector<double>& reference, const vk::Buffer& c,
              const std::function<void()>& before_uploads);
  DeviceCheck(const DeviceCheck&) = delete;
  DeviceCheck& operator=(const DeviceCheck&) = delete;

  /// Records C's fresh image (what the host check uploads) and clears the figures; a full barrier follows.
  void record_reset(VkCommandBuffer cmd) const;
  /// Records the comparison of C after the run (barriers before and after included).
  void record_check(VkCommandBuffer cmd) const;
  /// The figures the last recorded check left (after its submission completed), held to `bound` (floats; the
  /// 8-bit integer problems are held to exact results).
  DeviceVerdict verdict(double bound) const;

 private:
  const vk::Buffer& c_;
  uint64_t count_ = 0;
  bool integer_ = false;
  double max_ref_ = 0.0;
  float rel_floor_ = 0.0f;
  vk::Buffer initial_, expected_, result_;
  vk::ComputePipeline pipeline_;
};

}  // namespace gemmtune
