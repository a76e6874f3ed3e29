// Keeps a GPU's clocks up while the host builds pipelines or waits for the build workers. The H200 falls from
// 1980 to a few hundred MHz within a few hundred ms of idle, and only sustained work brings the clocks back, so a
// screening run after a build used to warm up three times the idle it left (up to a second). While started, a
// thread keeps one small FMA dispatch chunk after another on the queue; the tuner's own submissions wait until
// stop() has returned, so the queue always has one user.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <thread>

#include "vk/device.hpp"
#include "vk/resources.hpp"

namespace gemmtune {

class ClockKeeper {
 public:
  /// Builds its pipeline and buffer on `device` (a few KB; the pipeline is a driver cache hit after the first).
  ClockKeeper(const vk::Device& device, uint64_t fence_timeout_ns);
  ~ClockKeeper();  ///< stops
  ClockKeeper(const ClockKeeper&) = delete;
  ClockKeeper& operator=(const ClockKeeper&) = delete;

  /// Keeps the device busy from now on, until stop(); does nothing while already started.
  void start();
  /// Returns once the chunk in flight has finished: the queue is the caller's again. Rethrows what the thread
  /// met (a lost device, a fence timeout), so a fault is charged where the queue is next used.
  void stop();
  bool running() const { return thread_.joinable(); }
  /// Chunks submitted since construction (tests).
  uint64_t chunks() const { return chunks_.load(); }

 private:
  void keep_busy() noexcept;

  vk::Submitter submitter_;
  vk::Buffer out_;
  vk::ComputePipeline fma_;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  std::atomic<uint64_t> chunks_{0};
  uint32_t dispatches_ = 1;  ///< per chunk, grown until a chunk lasts about kChunkNs
  std::exception_ptr error_;
};

}  // namespace gemmtune
