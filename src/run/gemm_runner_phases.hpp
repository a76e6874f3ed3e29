// What the GemmRunner's phases share (resources, builds, verification, timing: gemm_runner*.cpp), not for
// its users.
#pragma once

#include <array>
#include <chrono>
#include <memory>

#include "run/gemm_runner.hpp"

namespace gemmtune {

/// A second of warm-up brings the H200 back from any idle: the screening warm-up's cap.
constexpr double kScreenWarmupCapNs = 1e9;
/// The GPU screening warm-up's floor: with the pipelines from the cache (no build idles the device), 5 ms ranked as
/// 20 did and screened twice the configs of a short problem's share (results/h200/notes.md, session (23)).
constexpr double kScreenWarmupFloorNs = 5e6;
/// CPU devices' screening warm-up (no clocks: it only wakes the driver's threads).
constexpr double kCpuScreenWarmupNs = 20e6;

struct GemmRunner::Passes {
  std::unique_ptr<vk::ComputePipeline> main;
  std::unique_ptr<vk::ComputePipeline> reduce;   ///< split-k only
  std::unique_ptr<vk::ComputePipeline> prepass;  ///< B decoded once before the main pass (rules::Prepass)
  std::array<uint64_t, 3> grid{};
  std::array<uint64_t, 3> reduce_grid{};
  std::array<uint64_t, 3> prepass_grid{};
  uint32_t splits = 1;
  uint64_t k_split = 0;
  uint64_t arrival_counters = 0;  ///< split-k finished in the main pass: its counters (binding 5)
  double compile_ms = 0.0;
};

/// Stamps the end of device work when a scope ends (screening warm-ups last as long as the idle gap).
struct IdleMark {
  std::chrono::steady_clock::time_point& since;
  ~IdleMark() { since = std::chrono::steady_clock::now(); }
};

}  // namespace gemmtune
