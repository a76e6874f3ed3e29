// Every kernel family gemmtune knows, by name.
#pragma once

#include <string>
#include <vector>

#include "kernels/kernel_def.hpp"

namespace gemmtune {

const KernelFamily& tiled_family();
const KernelFamily& splitk_family();
const KernelFamily& fewrows_family();
const KernelFamily& rowdot_family();
const KernelFamily& rowmma_family();
const KernelFamily& coopmat_family();
const KernelFamily& coopmat2_family();
/// The baseline (src/kernels/naive.cpp): not in the default sweep; --variants naive sweeps it.
const KernelFamily& naive_family();
/// Test-only (src/kernels/test_variants.cpp): listed by kernel_families() only when GEMMTUNE_TEST_KERNELS names
/// them ("hang", "lose", comma-separated).
const KernelFamily& test_hang_family();
const KernelFamily& test_lose_family();

/// The families a tune sweeps by default, in sweep order (naive is not one of them).
std::vector<const KernelFamily*> kernel_families();
/// The family called `name` (naive included), or nullptr.
const KernelFamily* find_family(const std::string& name);
/// Parses a comma-separated variant list (--variants); unknown names are a usage Error.
std::vector<const KernelFamily*> parse_variant_list(const std::string& text, const std::string& what = "--variants");

}  // namespace gemmtune
