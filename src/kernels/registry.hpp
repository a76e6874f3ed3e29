// Every kernel family gemmtune knows, by name.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kernels/kernel_def.hpp"

namespace gemmtune {

/// A description as the registry keeps it: where it sets no modules, its name's ("<name>_<dtype>").
KernelFamily with_named_modules(KernelFamily family);

/// Defines <name>_family(), the accessor through which the registry lists a family of kernels/CMakeLists.txt's list
/// (generated families.inc): the description `make()` returns, built once. One use in each src/kernels/<name>.cpp.
#define GEMMTUNE_DESCRIBE_FAMILY(name, make)                       \
  const KernelFamily& name##_family() {                            \
    static const KernelFamily family = with_named_modules(make()); \
    return family;                                                 \
  }

/// A family of the build's list, or the baseline, by name; std::out_of_range for any other (test variants too).
const KernelFamily& family_named(const std::string& name);
/// The baseline every winner's speed-up is measured against (src/kernels/naive.cpp): not in the default sweep;
/// --variants names it to sweep it.
const KernelFamily& baseline_family();
/// Test-only (src/kernels/test_variants.cpp): listed by kernel_families() only when GEMMTUNE_TEST_KERNELS names
/// them ("hang", "lose", "fault_...", comma-separated).
const KernelFamily& test_hang_family();
const KernelFamily& test_lose_family();
/// A real family with one planted mistake in its module (tests/gpu/test_planted_faults.cpp); listed by
/// kernel_families() when GEMMTUNE_TEST_KERNELS names it ("fault_unroll_tail", ...).
struct PlantedFault {
  std::shared_ptr<const KernelFamily> family;  ///< named fault_<fault>
  const KernelFamily* base;                    ///< the family it copies
  std::string what;                            ///< the mistake, in words
  bool order_only =
      false;  ///< a summation-order fault: within the bounds, refused in deterministic mode by the order check
};
const std::vector<PlantedFault>& planted_faults();

/// The families a tune sweeps by default, in sweep order (naive is not one of them).
std::vector<const KernelFamily*> kernel_families();
/// Every variant name a user can give, in sweep order with naive last: "tiled, splitk, ... or naive" (`last_word`
/// joins the last two).
std::string variant_names(const std::string& last_word = "or");

/// The variants whose numerics are not native (KernelFamily::numerics), comma-separated: what --native-f32 leaves
/// out.
std::string emulating_variant_names();

/// The family called `name` (naive included), or nullptr.
const KernelFamily* find_family(const std::string& name);

/// What a tuned config (its variant and parameters as a table records them, and its entry's layout) needs of other
/// shapes on any device (KernelFamily::shape_needs; a parameter left out takes its unnamed value), or nullopt for a
/// variant or a parameter this build does not know.
std::optional<ShapeNeeds> tuned_shape_needs(const std::string& variant,
                                            const std::vector<std::pair<std::string, uint32_t>>& params, DType dtype,
                                            Layout layout);
/// Parses a comma-separated variant list (--variants); unknown names are a usage Error.
std::vector<const KernelFamily*> parse_variant_list(const std::string& text, const std::string& what = "--variants");

}  // namespace gemmtune
