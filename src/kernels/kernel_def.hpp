// The declarative description of a kernel family: its parameters (specialization constants), named constraints,
// launch geometry and SPIR-V per input type. The generic tuner and runner do the rest.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/problem.hpp"
#include "vk/device_info.hpp"

namespace gemmtune {

/// One tunable: a specialization constant and the values the sweep tries.
struct ParamSpec {
  std::string name;  ///< short lower-case name used in config names ("bm")
  uint32_t constant_id;
  std::vector<uint32_t> values;
};

/// One point of a family's parameter space, values in the order of the family's ParamSpecs.
struct Config {
  std::vector<std::pair<std::string, uint32_t>> values;
  uint32_t get(const std::string& name) const;  ///< throws std::out_of_range for an unknown name
};

/// A named constraint: returns the reason when a config cannot run on the device, nullopt when it can.
struct KernelFamily;
struct Constraint {
  std::string code;  ///< stable reason code ("shared_memory", "invocations", ...)
  std::function<std::optional<std::string>(const KernelFamily&, const Config&, const Shape&, const vk::DeviceInfo&)> check;
};

struct KernelFamily {
  std::string name;  ///< variant name in tables and config names ("tiled")
  std::vector<ParamSpec> params;
  std::vector<Constraint> constraints;
  uint32_t workgroup_size_constant_id = 0;
  std::function<uint32_t(const Config&)> workgroup_size;
  std::function<uint64_t(const Config&)> shared_bytes;
  /// Workgroup counts (x, y, z) for a shape; may exceed the device's limits (a constraint prunes those).
  std::function<std::array<uint64_t, 3>(const Config&, const Shape&)> grid;
  std::function<std::span<const uint32_t>(DType)> spirv;

  /// Deterministic config name: "<family>_<dtype>_<param><value>..." ("tiled_f32_bm64_bn64_bk16_tm4_tn4").
  std::string config_name(const Config& config, DType dtype) const;
  /// The cartesian product of the parameter values, in declaration order.
  std::vector<Config> all_configs() const;
};

/// Constraints every family shares: workgroup size against maxComputeWorkGroupInvocations and
/// maxComputeWorkGroupSize[0], shared memory against maxComputeSharedMemorySize, grid against
/// maxComputeWorkGroupCount.
std::vector<Constraint> device_limit_constraints();

}  // namespace gemmtune
