// The portable tiled family (kernels/gemm_tiled.comp): parameters, constraints and launch geometry.
#include "kernels/registry.hpp"

#include "tiled_bf16.h"
#include "tiled_f16.h"
#include "tiled_f32.h"

namespace gemmtune {

namespace {
uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

template <size_t N>
std::span<const uint32_t> words(const uint32_t (&array)[N]) {
  return {array, N};
}

KernelFamily make_tiled() {
  KernelFamily f;
  f.name = "tiled";
  // Spec constant 0 is the workgroup size; 1..5 are the tile parameters (see the shader header).
  f.params = {
      {"bm", 1, {32, 64, 128}},
      {"bn", 2, {32, 64, 128}},
      {"bk", 3, {8, 16, 32}},
      {"tm", 4, {1, 2, 4, 8}},
      {"tn", 5, {1, 2, 4, 8}},
  };
  // Values come from code today; the divisibility constraint keeps user-edited spaces honest.
  f.constraints.push_back({"divisibility", [](const KernelFamily&, const Config& c, const Shape&, const vk::DeviceInfo&)
                                               -> std::optional<std::string> {
                             if (c.get("bm") % c.get("tm") != 0) return "bm is not a multiple of tm";
                             if (c.get("bn") % c.get("tn") != 0) return "bn is not a multiple of tn";
                             return std::nullopt;
                           }});
  for (Constraint& c : device_limit_constraints()) f.constraints.push_back(std::move(c));
  f.workgroup_size_constant_id = 0;
  f.workgroup_size = [](const Config& c) { return (c.get("bm") / c.get("tm")) * (c.get("bn") / c.get("tn")); };
  // The A tile has one float of padding per k row (see the shader).
  f.shared_bytes = [](const Config& c) { return uint64_t(c.get("bk")) * (c.get("bm") + 1 + c.get("bn")) * sizeof(float); };
  f.grid = [](const Config& c, const Shape& s) {
    return std::array<uint64_t, 3>{ceil_div(s.n, c.get("bn")), ceil_div(s.m, c.get("bm")), s.batch};
  };
  f.spirv = [](DType dtype) -> std::span<const uint32_t> {
    switch (dtype) {
      case DType::f32: return words(spirv_tiled_f32);
      case DType::f16: return words(spirv_tiled_f16);
      case DType::bf16: return words(spirv_tiled_bf16);
    }
    return {};
  };
  return f;
}
}  // namespace

const KernelFamily& tiled_family() {
  static const KernelFamily family = make_tiled();
  return family;
}

}  // namespace gemmtune
