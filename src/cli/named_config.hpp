// A config named as tune prints it (<variant>_<dtype>_<param><value>...): what bench runs and compare --rerun
// re-measures.
#pragma once

#include <string>

#include "core/problem.hpp"
#include "kernels/registry.hpp"

namespace gemmtune {

struct NamedConfig {
  const KernelFamily* family = nullptr;
  Config config;
  DType dtype = DType::f32;
};

/// The family, config and dtype of `name`; a usage Error naming `option` when there is no such config.
NamedConfig config_named(const std::string& name, const std::string& option);

}  // namespace gemmtune
