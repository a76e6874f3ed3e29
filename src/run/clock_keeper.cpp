#include "run/clock_keeper.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include "peak_fma_f32.h"

namespace gemmtune {

namespace {
// A workgroup on each of up to 256 compute units: the clocks rise with any sustained work, and a light load
// leaves the power limit alone. A chunk lasts a few ms, so stop() waits no longer.
constexpr uint32_t kWorkgroup = 128, kGroups = 256, kIterations = 2048;
constexpr double kChunkNs = 4e6;

template <size_t N>
std::span<const uint32_t> words(const uint32_t (&array)[N]) {
  return {array, N};
}
struct FmaPush {
  float m, c;
};
}  // namespace

ClockKeeper::ClockKeeper(const vk::Device& device, uint64_t fence_timeout_ns)
    : submitter_(device, fence_timeout_ns),
      out_(device, uint64_t(kWorkgroup) * kGroups * sizeof(float), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false),
      fma_(device, words(spirv_peak_fma_f32), {{0, kWorkgroup}, {1, kIterations}}, {out_.handle()},
           uint32_t(sizeof(FmaPush))) {}

ClockKeeper::~ClockKeeper() {
  try {
    stop();
  } catch (...) {  // the fault shows at the queue's next use
  }
}

void ClockKeeper::start() {
  if (thread_.joinable()) return;
  stopping_ = false;
  thread_ = std::thread([this] { keep_busy(); });
}

void ClockKeeper::stop() {
  if (!thread_.joinable()) return;
  stopping_ = true;
  thread_.join();
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void ClockKeeper::keep_busy() noexcept {
  const FmaPush push{0.9999999f, 1e-7f};
  try {
    while (!stopping_.load()) {
      const auto start = std::chrono::steady_clock::now();
      submitter_.run([&](VkCommandBuffer cmd) {
        for (uint32_t d = 0; d < dispatches_; ++d) fma_.record_dispatch(cmd, &push, kGroups, 1, 1);
      });
      ++chunks_;
      const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
      if (ns < kChunkNs / 2 && dispatches_ < 4096) dispatches_ *= 2;
    }
  } catch (...) {
    error_ = std::current_exception();
  }
}

}  // namespace gemmtune
