#include "kernels/spirv.hpp"

#include "coopmat2_bf16.h"
#include "coopmat2_f16.h"
#include "coopmat_bf16.h"
#include "coopmat_f16.h"
#include "coopmat_i8.h"
#include "coopmat_u8.h"
#include "coopmat_u8i8.h"
#include "check_result_f32.h"
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
// Planted faults (test-only).
#include "fault_beta_reads_c_bf16.h"
#include "fault_beta_reads_c_f16.h"
#include "fault_beta_reads_c_f32.h"
#include "fault_bias_shift_bf16.h"
#include "fault_bias_shift_f16.h"
#include "fault_bias_shift_f32.h"
#include "fault_dropped_plane_bf16.h"
#include "fault_dropped_plane_f16.h"
#include "fault_dropped_plane_f32.h"
#include "fault_edge_column_bf16.h"
#include "fault_edge_column_f16.h"
#include "fault_edge_column_f32.h"
#include "fault_gelu_constant_bf16.h"
#include "fault_gelu_constant_f16.h"
#include "fault_gelu_constant_f32.h"
#include "fault_gelu_erf_constant_bf16.h"
#include "fault_gelu_erf_constant_f16.h"
#include "fault_gelu_erf_constant_f32.h"
#include "fault_last_slice_bf16.h"
#include "fault_last_slice_f16.h"
#include "fault_last_slice_f32.h"
#include "fault_reversed_planes_bf16.h"
#include "fault_reversed_planes_f16.h"
#include "fault_reversed_planes_f32.h"
#include "fault_rowdot_head_bf16.h"
#include "fault_rowdot_head_f16.h"
#include "fault_rowdot_head_f32.h"
#include "fault_unroll_tail_bf16.h"
#include "fault_unroll_tail_f16.h"
#include "fault_unroll_tail_f32.h"
#include "fault_zero_point_i8.h"
#include "fault_zero_point_u8.h"
#include "fault_zero_point_u8i8.h"
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

std::span<const uint32_t> tiled_spirv(DType dtype) {
  switch (dtype) {
    case DType::f32:
      return spirv_words(spirv_tiled_f32);
    case DType::f16:
      return spirv_words(spirv_tiled_f16);
    case DType::bf16:
      return spirv_words(spirv_tiled_bf16);
    case DType::i8:
      return spirv_words(spirv_tiled_i8);
    case DType::u8:
      return spirv_words(spirv_tiled_u8);
    case DType::u8i8:
      return spirv_words(spirv_tiled_u8i8);
  }
  return {};
}

std::span<const uint32_t> naive_spirv(DType dtype) {
  switch (dtype) {
    case DType::f32:
      return spirv_words(spirv_naive_f32);
    case DType::f16:
      return spirv_words(spirv_naive_f16);
    case DType::bf16:
      return spirv_words(spirv_naive_bf16);
    case DType::i8:
      return spirv_words(spirv_naive_i8);
    case DType::u8:
      return spirv_words(spirv_naive_u8);
    case DType::u8i8:
      return spirv_words(spirv_naive_u8i8);
  }
  return {};
}

std::span<const uint32_t> rowdot_spirv(DType dtype) {
  switch (dtype) {
    case DType::f32:
      return spirv_words(spirv_rowdot_f32);
    case DType::f16:
      return spirv_words(spirv_rowdot_f16);
    case DType::bf16:
      return spirv_words(spirv_rowdot_bf16);
    default:
      return {};
  }
}

std::span<const uint32_t> fewrows_spirv(DType dtype) {
  switch (dtype) {
    case DType::f32:
      return spirv_words(spirv_fewrows_f32);
    case DType::f16:
      return spirv_words(spirv_fewrows_f16);
    case DType::bf16:
      return spirv_words(spirv_fewrows_bf16);
    case DType::i8:
      return spirv_words(spirv_fewrows_i8);
    case DType::u8:
      return spirv_words(spirv_fewrows_u8);
    case DType::u8i8:
      return spirv_words(spirv_fewrows_u8i8);
  }
  return {};
}

std::span<const uint32_t> coopmat_spirv(DType dtype) {
  switch (dtype) {
    case DType::f16:
      return spirv_words(spirv_coopmat_f16);
    case DType::bf16:
      return spirv_words(spirv_coopmat_bf16);
    case DType::i8:
      return spirv_words(spirv_coopmat_i8);
    case DType::u8:
      return spirv_words(spirv_coopmat_u8);
    case DType::u8i8:
      return spirv_words(spirv_coopmat_u8i8);
    default:
      return {};
  }
  return {};
}

std::span<const uint32_t> rowmma_spirv(DType dtype) {
  switch (dtype) {
    case DType::f16:
      return spirv_words(spirv_rowmma_f16);
    case DType::bf16:
      return spirv_words(spirv_rowmma_bf16);
    default:
      return {};
  }
}

std::span<const uint32_t> coopmat2_spirv(DType dtype) {
  switch (dtype) {
    case DType::f16:
      return spirv_words(spirv_coopmat2_f16);
    case DType::bf16:
      return spirv_words(spirv_coopmat2_bf16);
    default:
      return {};
  }
  return {};
}

std::span<const uint32_t> tiled_dot_spirv(DType dtype) {
  switch (dtype) {
    case DType::i8:
      return spirv_words(spirv_tiled_dot_i8);
    case DType::u8:
      return spirv_words(spirv_tiled_dot_u8);
    case DType::u8i8:
      return spirv_words(spirv_tiled_dot_u8i8);
    default:
      return {};
  }
}

std::span<const uint32_t> splitk_reduce_spirv(DType dtype) {
  return is_integer(dtype) ? spirv_words(spirv_splitk_reduce_i32) : spirv_words(spirv_splitk_reduce_f32);
}
std::span<const uint32_t> epilogue_spirv() { return spirv_words(spirv_epilogue_f32); }
std::span<const uint32_t> check_result_spirv() { return spirv_words(spirv_check_result_f32); }

std::span<const uint32_t> test_hang_spirv() { return spirv_words(spirv_test_hang_f32); }

std::span<const uint32_t> fault_spirv(const std::string& fault, DType dtype) {
  auto pick = [&](auto& f32, auto& f16, auto& bf16) -> std::span<const uint32_t> {
    switch (dtype) {
      case DType::f32:
        return spirv_words(f32);
      case DType::f16:
        return spirv_words(f16);
      case DType::bf16:
        return spirv_words(bf16);
      default:
        return {};
    }
  };
  if (fault == "unroll_tail")
    return pick(spirv_fault_unroll_tail_f32, spirv_fault_unroll_tail_f16, spirv_fault_unroll_tail_bf16);
  if (fault == "last_slice")
    return pick(spirv_fault_last_slice_f32, spirv_fault_last_slice_f16, spirv_fault_last_slice_bf16);
  if (fault == "dropped_plane")
    return pick(spirv_fault_dropped_plane_f32, spirv_fault_dropped_plane_f16, spirv_fault_dropped_plane_bf16);
  if (fault == "reversed_planes")
    return pick(spirv_fault_reversed_planes_f32, spirv_fault_reversed_planes_f16, spirv_fault_reversed_planes_bf16);
  if (fault == "rowdot_head")
    return pick(spirv_fault_rowdot_head_f32, spirv_fault_rowdot_head_f16, spirv_fault_rowdot_head_bf16);
  if (fault == "edge_column")
    return pick(spirv_fault_edge_column_f32, spirv_fault_edge_column_f16, spirv_fault_edge_column_bf16);
  if (fault == "beta_reads_c")
    return pick(spirv_fault_beta_reads_c_f32, spirv_fault_beta_reads_c_f16, spirv_fault_beta_reads_c_bf16);
  if (fault == "bias_shift")
    return pick(spirv_fault_bias_shift_f32, spirv_fault_bias_shift_f16, spirv_fault_bias_shift_bf16);
  if (fault == "gelu_constant")
    return pick(spirv_fault_gelu_constant_f32, spirv_fault_gelu_constant_f16, spirv_fault_gelu_constant_bf16);
  if (fault == "gelu_erf_constant")
    return pick(spirv_fault_gelu_erf_constant_f32, spirv_fault_gelu_erf_constant_f16,
                spirv_fault_gelu_erf_constant_bf16);
  if (fault == "zero_point") {
    switch (dtype) {
      case DType::i8:
        return spirv_words(spirv_fault_zero_point_i8);
      case DType::u8:
        return spirv_words(spirv_fault_zero_point_u8);
      case DType::u8i8:
        return spirv_words(spirv_fault_zero_point_u8i8);
      default:
        return {};
    }
  }
  return {};
}

}  // namespace gemmtune
