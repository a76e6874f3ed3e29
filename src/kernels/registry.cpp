#include "kernels/registry.hpp"

#include <algorithm>
#include <cstdlib>

#include "core/error.hpp"

namespace gemmtune {

std::vector<const KernelFamily*> kernel_families() {
  std::vector<const KernelFamily*> families{&tiled_family(), &splitk_family(), &fewrows_family(), &rowdot_family(), &rowmma_family(), &coopmat_family(), &coopmat2_family()};
  // Test-only variants, never in a normal run.
  const std::string test = std::getenv("GEMMTUNE_TEST_KERNELS") ? std::getenv("GEMMTUNE_TEST_KERNELS") : "";
  auto named = [&](const std::string& name) { return ("," + test + ",").find("," + name + ",") != std::string::npos; };
  if (named("hang")) families.push_back(&test_hang_family());
  if (named("lose")) families.push_back(&test_lose_family());
  for (const PlantedFault& fault : planted_faults()) {
    if (named(fault.family->name)) families.push_back(fault.family.get());
  }
  return families;
}

const KernelFamily* find_family(const std::string& name) {
  for (const KernelFamily* f : kernel_families()) {
    if (f->name == name) return f;
  }
  return name == naive_family().name ? &naive_family() : nullptr;
}

std::vector<const KernelFamily*> parse_variant_list(const std::string& text, const std::string& what) {
  std::vector<const KernelFamily*> out;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    std::string name = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const KernelFamily* f = find_family(name);
    if (!f) throw usage_error(what, name, "unknown variant (expected tiled, splitk, fewrows, rowdot, rowmma, coopmat, coopmat2 or naive)");
    if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace gemmtune
