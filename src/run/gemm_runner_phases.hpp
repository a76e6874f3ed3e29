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
  rules::Plan plan;  ///< what a run records, pass by pass (the main pass's grid a test variant's where it has one)
  /// One per distinct pass recipe and scratch range (its descriptor set sees the pass's part of binding 4).
  std::vector<std::unique_ptr<vk::ComputePipeline>> pipelines;
  std::vector<vk::ComputePipeline*> pass_pipelines;  ///< plan.passes[i]'s pipeline
  const vk::ComputePipeline* main = nullptr;         ///< the (last) main pass's
  const vk::ComputePipeline* reduce = nullptr;       ///< split-k's reduce pass's, where there is one
  const vk::ComputePipeline* prepass = nullptr;      ///< the pre-pass's (rules::Prepass), where there is one
  uint64_t arrival_counters = 0;                     ///< split-k finished in the main pass: its counters
  double compile_ms = 0.0;
};

/// Stamps the end of device work when a scope ends (screening warm-ups last as long as the idle gap).
struct IdleMark {
  std::chrono::steady_clock::time_point& since;
  ~IdleMark() { since = std::chrono::steady_clock::now(); }
};

}  // namespace gemmtune
