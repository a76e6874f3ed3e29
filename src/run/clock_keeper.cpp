#include "run/clock_keeper.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include "kernels/spirv.hpp"

namespace gemmtune {

namespace {
// A workgroup on each of up to 256 compute units: the clocks rise with any sustained work, and a light load
// leaves the power limit alone. A chunk lasts a few ms, so stop() waits no longer.
constexpr uint32_t kKeeperWorkgroup = 128, kKeeperGroups = 256, kKeeperIterations = 2048;
constexpr double kKeeperChunkNs = 4e6;

struct FmaPush {
  float m, c;
};
}  // namespace

ClockKeeper::ClockKeeper(const vk::Device& device, uint64_t fence_timeout_ns)
    : submitter_(device, fence_timeout_ns),
      out_(device, uint64_t(kKeeperWorkgroup) * kKeeperGroups * sizeof(float), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
           false),
      fma_(device, spirv_module("peak_fma_f32"), {{0, kKeeperWorkgroup}, {1, kKeeperIterations}}, {out_.handle()},
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
        for (uint32_t d = 0; d < dispatches_; ++d) fma_.record_dispatch(cmd, &push, kKeeperGroups, 1, 1);
      });
      ++chunks_;
      const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
      if (ns < kKeeperChunkNs / 2 && dispatches_ < 4096) dispatches_ *= 2;
    }
  } catch (...) {
    error_ = std::current_exception();
  }
}

}  // namespace gemmtune
