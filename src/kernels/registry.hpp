// Every kernel family gemmtune knows, by name.
#pragma once

#include <string>
#include <vector>

#include "kernels/kernel_def.hpp"

namespace gemmtune {

const KernelFamily& tiled_family();

/// All families in sweep order.
std::vector<const KernelFamily*> kernel_families();
/// The family called `name`, or nullptr.
const KernelFamily* find_family(const std::string& name);

}  // namespace gemmtune
