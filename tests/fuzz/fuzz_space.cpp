// Fuzz target: the search-space reader (--space FILE). Accepted files restrict every family to a non-empty list
// of values; refused ones are one line naming the file.
#include <cstddef>
#include <cstdint>

#include "fuzz_check.hpp"
#include "kernels/registry.hpp"
#include "kernels/space_file.hpp"

using namespace gemmtune;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  static const std::vector<const KernelFamily*> families = kernel_families();
  try {
    const std::vector<KernelFamily> restricted = apply_space(text, "fuzz.json", families);
    if (restricted.size() != families.size()) fuzz::fail("a family was lost");
    for (const KernelFamily& f : restricted) {
      for (const auto& p : f.params) {
        if (p.values.empty()) fuzz::fail("family " + f.name + " parameter " + p.name + " has no values");
      }
    }
  } catch (const Error& e) {
    fuzz::check_refusal(e, "fuzz.json", ExitCode::usage);
  }
  return 0;
}
