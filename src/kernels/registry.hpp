// Every kernel family gemmtune knows, by name.
#pragma once

#include <string>
#include <vector>

#include "kernels/kernel_def.hpp"

namespace gemmtune {

const KernelFamily& tiled_family();
const KernelFamily& splitk_family();
const KernelFamily& fewrows_family();
const KernelFamily& coopmat_family();
/// Test-only (kernels/test_hang.comp): listed by kernel_families() only with GEMMTUNE_TEST_KERNELS=hang.
const KernelFamily& test_hang_family();

/// All families in sweep order.
std::vector<const KernelFamily*> kernel_families();
/// The family called `name`, or nullptr.
const KernelFamily* find_family(const std::string& name);
/// Parses a comma-separated variant list (--variants); unknown names are a usage Error.
std::vector<const KernelFamily*> parse_variant_list(const std::string& text, const std::string& what = "--variants");

}  // namespace gemmtune
