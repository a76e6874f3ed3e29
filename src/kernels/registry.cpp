#include "kernels/registry.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "core/error.hpp"
#include "kernels/spirv.hpp"

namespace gemmtune {

// Every family of the build's list (kernels/CMakeLists.txt), declared and listed in its order.
#define GEMMTUNE_FAMILY(name) const KernelFamily& name##_family();
#include "families.inc"
#undef GEMMTUNE_FAMILY
const KernelFamily& naive_family();

namespace {
std::vector<const KernelFamily*> listed_families() {
  return {
#define GEMMTUNE_FAMILY(name) &name##_family(),
#include "families.inc"
#undef GEMMTUNE_FAMILY
  };
}
}  // namespace

KernelFamily with_named_modules(KernelFamily family) {
  if (!family.spirv) family.spirv = spirv_modules_named(family.name);
  return family;
}

const KernelFamily& baseline_family() { return naive_family(); }

const KernelFamily& family_named(const std::string& name) {
  for (const KernelFamily* f : listed_families()) {
    if (f->name == name) return *f;
  }
  if (name == baseline_family().name) return baseline_family();
  throw std::out_of_range("no kernel family named " + name);
}

std::vector<const KernelFamily*> kernel_families() {
  std::vector<const KernelFamily*> families = listed_families();
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
  return name == baseline_family().name ? &baseline_family() : nullptr;
}

std::string variant_names(const std::string& last_word) {
  std::vector<std::string> names;
  for (const KernelFamily* f : kernel_families()) names.push_back(f->name);
  names.push_back(baseline_family().name);
  std::string text;
  for (size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " " + last_word + " " : ", ") + names[i];
  return text;
}

std::string emulating_variant_names() {
  std::string text;
  for (const KernelFamily* f : kernel_families())
    if (f->numerics != kNativeNumerics) text += (text.empty() ? "" : ", ") + f->name;
  return text;
}

std::optional<ShapeNeeds> tuned_shape_needs(const std::string& variant,
                                            const std::vector<std::pair<std::string, uint32_t>>& params, DType dtype,
                                            Layout layout) {
  const KernelFamily* family = find_family(variant);
  if (!family) return std::nullopt;
  Config config;
  for (const ParamSpec& spec : family->params) {
    auto it = std::find_if(params.begin(), params.end(), [&](const auto& p) { return p.first == spec.name; });
    if (it != params.end()) {
      config.values.emplace_back(spec.name, it->second);
    } else if (spec.unnamed_value) {
      config.values.emplace_back(spec.name, *spec.unnamed_value);
    } else {
      return std::nullopt;
    }
  }
  for (const auto& [name, value] : params) {  // a parameter this build's family does not have
    if (std::none_of(family->params.begin(), family->params.end(), [&](const ParamSpec& s) { return s.name == name; }))
      return std::nullopt;
  }
  return family->shape_needs ? family->shape_needs(config, dtype, layout) : ShapeNeeds{};
}

std::vector<const KernelFamily*> parse_variant_list(const std::string& text, const std::string& what) {
  std::vector<const KernelFamily*> out;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    std::string name = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const KernelFamily* f = find_family(name);
    if (!f) throw usage_error(what, name, "unknown variant (expected " + variant_names() + ")");
    if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace gemmtune
