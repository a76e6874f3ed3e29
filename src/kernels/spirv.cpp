#include "kernels/spirv.hpp"

#include "coopmat2_bf16.h"
#include "coopmat2_f16.h"
#include "coopmat_bf16.h"
#include "coopmat_f16.h"
#include "coopmat_i8.h"
#include "coopmat_u8.h"
#include "coopmat_u8i8.h"
#include "epilogue_f32.h"
#include "fewrows_bf16.h"
#include "fewrows_f16.h"
#include "fewrows_f32.h"
#include "fewrows_i8.h"
#include "fewrows_u8.h"
#include "fewrows_u8i8.h"
#include "rowmma_bf16.h"
#include "rowmma_f16.h"
#include "rowdot_bf16.h"
#include "rowdot_f16.h"
#include "rowdot_f32.h"
#include "naive_bf16.h"
#include "naive_f16.h"
#include "naive_f32.h"
#include "naive_i8.h"
#include "naive_u8.h"
#include "naive_u8i8.h"
#include "splitk_reduce_f32.h"
#include "splitk_reduce_i32.h"
#include "test_hang_f32.h"
#include "tiled_bf16.h"
#include "tiled_f16.h"
#include "tiled_dot_i8.h"
#include "tiled_dot_u8.h"
#include "tiled_dot_u8i8.h"
#include "tiled_f32.h"
#include "tiled_i8.h"
#include "tiled_u8.h"
#include "tiled_u8i8.h"

namespace gemmtune {

namespace {
template <size_t N>
std::span<const uint32_t> words(const uint32_t (&array)[N]) {
  return {array, N};
}
}  // namespace

std::span<const uint32_t> tiled_spirv(DType dtype) {
  switch (dtype) {
    case DType::f32: return words(spirv_tiled_f32);
    case DType::f16: return words(spirv_tiled_f16);
    case DType::bf16: return words(spirv_tiled_bf16);
    case DType::i8: return words(spirv_tiled_i8);
    case DType::u8: return words(spirv_tiled_u8);
    case DType::u8i8: return words(spirv_tiled_u8i8);
  }
  return {};
}

std::span<const uint32_t> naive_spirv(DType dtype) {
  switch (dtype) {
    case DType::f32: return words(spirv_naive_f32);
    case DType::f16: return words(spirv_naive_f16);
    case DType::bf16: return words(spirv_naive_bf16);
    case DType::i8: return words(spirv_naive_i8);
    case DType::u8: return words(spirv_naive_u8);
    case DType::u8i8: return words(spirv_naive_u8i8);
  }
  return {};
}

std::span<const uint32_t> rowdot_spirv(DType dtype) {
  switch (dtype) {
    case DType::f32: return words(spirv_rowdot_f32);
    case DType::f16: return words(spirv_rowdot_f16);
    case DType::bf16: return words(spirv_rowdot_bf16);
    default: return {};
  }
}

std::span<const uint32_t> fewrows_spirv(DType dtype) {
  switch (dtype) {
    case DType::f32: return words(spirv_fewrows_f32);
    case DType::f16: return words(spirv_fewrows_f16);
    case DType::bf16: return words(spirv_fewrows_bf16);
    case DType::i8: return words(spirv_fewrows_i8);
    case DType::u8: return words(spirv_fewrows_u8);
    case DType::u8i8: return words(spirv_fewrows_u8i8);
  }
  return {};
}

std::span<const uint32_t> coopmat_spirv(DType dtype) {
  switch (dtype) {
    case DType::f16: return words(spirv_coopmat_f16);
    case DType::bf16: return words(spirv_coopmat_bf16);
    case DType::i8: return words(spirv_coopmat_i8);
    case DType::u8: return words(spirv_coopmat_u8);
    case DType::u8i8: return words(spirv_coopmat_u8i8);
    default: return {};
  }
  return {};
}

std::span<const uint32_t> rowmma_spirv(DType dtype) {
  switch (dtype) {
    case DType::f16: return words(spirv_rowmma_f16);
    case DType::bf16: return words(spirv_rowmma_bf16);
    default: return {};
  }
}

std::span<const uint32_t> coopmat2_spirv(DType dtype) {
  switch (dtype) {
    case DType::f16: return words(spirv_coopmat2_f16);
    case DType::bf16: return words(spirv_coopmat2_bf16);
    default: return {};
  }
  return {};
}

std::span<const uint32_t> tiled_dot_spirv(DType dtype) {
  switch (dtype) {
    case DType::i8: return words(spirv_tiled_dot_i8);
    case DType::u8: return words(spirv_tiled_dot_u8);
    case DType::u8i8: return words(spirv_tiled_dot_u8i8);
    default: return {};
  }
}

std::span<const uint32_t> splitk_reduce_spirv(DType dtype) {
  return is_integer(dtype) ? words(spirv_splitk_reduce_i32) : words(spirv_splitk_reduce_f32);
}
std::span<const uint32_t> epilogue_spirv() { return words(spirv_epilogue_f32); }

std::span<const uint32_t> test_hang_spirv() { return words(spirv_test_hang_f32); }

}  // namespace gemmtune
