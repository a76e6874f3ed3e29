#include "kernels/spirv.hpp"

#include <algorithm>

namespace gemmtune {

std::span<const uint32_t> spirv_module(std::string_view name) {
  for (const EmbeddedModule& m : embedded_modules()) {
    if (m.name == name) return m.words;
  }
  return {};
}

std::span<const uint32_t> spirv_module(std::string_view module, DType dtype) {
  return spirv_module(std::string(module) + "_" + std::string(dtype_token(dtype)));
}

std::function<std::span<const uint32_t>(DType)> spirv_modules_named(std::string module) {
  return [module = std::move(module)](DType dtype) { return spirv_module(module, dtype); };
}

std::span<const uint32_t> splitk_reduce_spirv(DType dtype) {
  return spirv_module(is_integer(dtype) ? "splitk_reduce_i32" : "splitk_reduce_f32");
}
std::span<const uint32_t> prepass_spirv(rules::Prepass kind, DType dtype) {
  if (kind == rules::Prepass::decode_b) return spirv_module("decode_blocks", dtype);
  if (kind == rules::Prepass::split_ab) return spirv_module("split_planes", dtype);
  if (kind == rules::Prepass::align_ab) return spirv_module("align_planes_f16");  // moves 16-bit patterns
  if (kind == rules::Prepass::quantize_a) return spirv_module("quantize_a", dtype);
  return {};
}
std::span<const uint32_t> epilogue_spirv() { return spirv_module("epilogue_f32"); }
std::span<const uint32_t> check_result_spirv() { return spirv_module("check_result_f32"); }

}  // namespace gemmtune
