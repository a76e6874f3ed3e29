#include "kernels/registry.hpp"

namespace gemmtune {

std::vector<const KernelFamily*> kernel_families() { return {&tiled_family()}; }

const KernelFamily* find_family(const std::string& name) {
  for (const KernelFamily* f : kernel_families()) {
    if (f->name == name) return f;
  }
  return nullptr;
}

}  // namespace gemmtune
