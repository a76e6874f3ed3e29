// How a GEMM kernel of gemmtune is dispatched: the push-constant block, the specialization constants that come
// from the operation, the grid, the split-k ranges and the passes. Dependency-free C++17: gemmtune's runner plans
// every run with it, and `gemmtune export --format kit` copies this file verbatim into the kit (only the namespace
// renamed), so a kit dispatches exactly what gemmtune timed and verified.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace gemmtune::rules {

/// The push-constant block of every GEMM kernel (kernels/common/gemm_common.glsl), 80 bytes; offsets count elements.
struct GemmPush {
  uint32_t m, n, k;
  uint32_t lda, ldb, ldc;
  uint32_t off_a, off_b, off_c, off_bias;
  uint32_t stride_a, stride_b, stride_c;
  uint32_t base_x, base_y, base_z;  ///< the first workgroup of this dispatch, where a grid needs several
  float alpha, beta;
  uint32_t k_split;  ///< terms per split-k range (K when unsplit)
};

/// C = alpha * op(A) * op(B) + beta * C (+ bias, activation) for `batch` products, every number resolved: rows of A
/// stored M x K (K x M transposed), B K x N (N x K), C M x N; element (z, r, c) of an operand at
/// offset + z * stride + r * ld + c of its buffer. Buffers: A and B of the input type, C (and bias) f32, or int32 C
/// for the 8-bit types.
struct Operation {
  uint64_t m = 1, n = 1, k = 1, batch = 1;
  bool trans_a = false, trans_b = false;
  uint64_t lda = 0, ldb = 0, ldc = 0;
  uint64_t off_a = 0, off_b = 0, off_c = 0;
  uint64_t stride_a = 0, stride_b = 0, stride_c = 0;  ///< 0 for A or B: one operand shared by every product
  float alpha = 1.0f, beta = 0.0f;
  bool bias = false;  ///< f32 bias[bias_offset + j] added to column j
  uint64_t bias_offset = 0;
  uint32_t activation = 0;         ///< 0 none, 1 relu, 2 gelu-erf, 3 gelu-tanh
  bool deterministic = false;      ///< the summation order of gemmtune's deterministic mode
  int32_t zero_a = 0, zero_b = 0;  ///< zero points of the 8-bit integer types
  uint32_t input_bytes = 4;        ///< bytes per element of A and B: 4 (f32), 2 (f16, bf16), 1 (i8, u8, u8i8)
};

/// A packed operation: leading dimensions and batch strides of dense row-major storage.
inline Operation packed(uint64_t m, uint64_t n, uint64_t k, bool trans_a, bool trans_b, uint32_t input_bytes,
                        uint64_t batch = 1) {
  Operation op;
  op.m = m, op.n = n, op.k = k, op.batch = batch, op.trans_a = trans_a, op.trans_b = trans_b;
  op.lda = trans_a ? m : k, op.ldb = trans_b ? k : n, op.ldc = n;
  op.stride_a = m * k, op.stride_b = k * n, op.stride_c = m * n;
  op.input_bytes = input_bytes;
  return op;
}

struct SpecConstant {
  uint32_t id = 0, value = 0;
};

/// Specialization constant ids set from the operation (kernels/common/gemm_common.glsl).
namespace constant_id {
inline constexpr uint32_t trans_a = 20, trans_b = 21, has_bias = 22, activation = 23, deterministic = 24, split = 25,
                          aligned_a = 26, aligned_b = 27, zero_a = 28, zero_b = 29, rows_a = 31, a_rows_vector = 32;
}

/// Every stored row of an operand starts on a 16-byte boundary: ld, offset and batch stride multiples of 16 bytes.
inline bool rows_aligned_16b(uint64_t ld, uint64_t offset, uint64_t stride, uint32_t input_bytes) {
  const uint64_t per = 16 / input_bytes;
  return ld % per == 0 && offset % per == 0 && stride % per == 0;
}
inline bool a_aligned(const Operation& op) { return rows_aligned_16b(op.lda, op.off_a, op.stride_a, op.input_bytes); }
inline bool b_aligned(const Operation& op) { return rows_aligned_16b(op.ldb, op.off_b, op.stride_b, op.input_bytes); }

/// Every row of op(A) is contiguous in k and 16-byte aligned: A as stored with aligned rows, or A transposed with
/// one row of op(A) (M = 1) stored with ld 1.
inline bool a_rows_vector(const Operation& op) {
  const uint64_t per = 16 / op.input_bytes;
  if (!op.trans_a) return a_aligned(op);
  return op.m == 1 && op.lda == 1 && op.off_a % per == 0 && op.stride_a % per == 0;
}

inline constexpr size_t kOperationConstants = 12;

/// The operation's specialization constants for a pass over `splits` k ranges; `epilogue` false leaves bias and
/// activation out (the main pass of a split that the reduce pass finishes).
inline std::array<SpecConstant, kOperationConstants> operation_constants(const Operation& op, bool epilogue,
                                                                         uint32_t splits) {
  namespace id = constant_id;
  return {{{id::aligned_a, a_aligned(op)},
           {id::aligned_b, b_aligned(op)},
           {id::trans_a, op.trans_a},
           {id::trans_b, op.trans_b},
           {id::has_bias, epilogue && op.bias},
           {id::activation, epilogue ? op.activation : 0u},
           {id::deterministic, op.deterministic},
           {id::split, splits},
           {id::zero_a, uint32_t(op.zero_a)},
           {id::zero_b, uint32_t(op.zero_b)},
           {id::rows_a, uint32_t(op.m < 16 ? op.m : 16)},
           {id::a_rows_vector, a_rows_vector(op)}}};
}

/// Terms per split-k range: ceil(K / S) rounded up to a multiple of 32 (the last range takes what is left).
inline uint64_t split_range_terms(uint64_t k, uint32_t splits) {
  const uint64_t per = (k + splits - 1) / splits;
  return (per + 31) / 32 * 32;
}

/// K gives `splits` ranges of at least 64 terms each (one range: any K).
inline bool split_ranges_fit(uint64_t k, uint32_t splits) {
  if (splits <= 1) return true;
  const uint64_t range = split_range_terms(k, splits);
  return range >= 64 && k >= (splits - 1) * range + 64;
}

/// How a kernel config covers C with workgroups.
struct DispatchRule {
  uint32_t columns = 1;              ///< columns of C a workgroup covers (grid x)
  uint32_t columns_unaligned_b = 0;  ///< instead where B is stored K x N with rows off 16 bytes (0: `columns`)
  uint32_t rows = 0;                 ///< rows of C a workgroup covers (grid y); 0: every row, one workgroup row
  uint32_t splits = 1;               ///< split-k ranges
  bool splits_along_x = false;       ///< ranges side by side in x (the decoding kernels), else in z
  /// Split-k finished in the main pass: the last workgroup of each block of C to arrive adds the planes, counting
  /// arrivals in a buffer of one uint32 a block (zero before the first run; every run leaves it zero). Otherwise
  /// the reduce pass adds them.
  bool one_pass_split = false;
  /// A pass before the main one (Prepass): 0 none, 1 B's blocks decoded once (decode_b), 2 A and B split once
  /// into bfloat16 parts (split_ab), 3 A and B copied once to 16-byte rows (align_ab), 4 op(A) as two 8-bit parts
  /// a block (quantize_a).
  uint32_t prepass = 0;
};

/// What a DispatchRule's pre-pass does; its output takes the scratch buffer (binding 4), so such a rule has one
/// split-k range. decode_b: kernels/decode_blocks.comp reads B's blocks once and writes them as f16, element
/// (z, n, k) of op(B) at z x N x K (0 where B is shared) + n x K + k; the main pass reads B from there instead of
/// decoding it in every tile that stages it. split_ab: kernels/split_planes.comp splits every f32 element of op(A)
/// and op(B) once into three bfloat16 parts (hi, mid, lo): for product z, rows of op(A) then rows of op(B)^T (M + N
/// rows of split_k_padded(K) elements, zero past K), each group of 8 elements of a row as three 16-byte vectors, hi,
/// mid and lo, at vector 3 x (z x (M + N) x K8 + row x K8 + group) + part, K8 = split_k_padded(K) / 8.
/// align_ab: kernels/align_planes.comp copies 16-bit op(A) and op(B) once, each in its stored orientation, to rows
/// that start on 16 bytes (AlignedPlanes), so the main pass stages every tile as 16-byte vectors whatever the
/// operands' leading dimensions and offsets, and steps K in whole steps of up to 64.
/// quantize_a: kernels/quantize_a.comp writes each 32-element block of each row of op(A) (K a multiple of 32) as
/// integers v = 254 h + l over a step d (quantized_a_words): h and l signed bytes, element e of the block v_e d.
enum class Prepass : uint32_t { none = 0, decode_b = 1, split_ab = 2, align_ab = 3, quantize_a = 4 };

inline uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/// Blocks of C a grid row covers, and block rows.
inline uint64_t column_blocks(const DispatchRule& rule, const Operation& op) {
  const bool unaligned = rule.columns_unaligned_b > 0 && !op.trans_b && !b_aligned(op);
  return ceil_div(op.n, unaligned ? rule.columns_unaligned_b : rule.columns);
}
inline uint64_t row_blocks(const DispatchRule& rule, const Operation& op) {
  return rule.rows > 0 ? ceil_div(op.m, rule.rows) : 1;
}

/// Workgroups (x, y, z) of the main pass; may exceed a device's maxComputeWorkGroupCount (for_each_dispatch).
inline std::array<uint64_t, 3> main_grid(const DispatchRule& rule, const Operation& op) {
  const uint64_t x_splits = rule.splits_along_x ? rule.splits : 1, z_splits = rule.splits_along_x ? 1 : rule.splits;
  return {column_blocks(rule, op) * x_splits, row_blocks(rule, op), op.batch * z_splits};
}

/// Arrival counters (uint32) the main pass needs: 0 unless split-k finishes in it.
inline uint64_t arrival_counters(const DispatchRule& rule, const Operation& op) {
  if (rule.splits <= 1 || !rule.one_pass_split) return 0;
  return column_blocks(rule, op) * row_blocks(rule, op) * op.batch;
}

/// The reduce pass (kernels/splitk_reduce.comp): 16 x 16 outputs a workgroup.
inline std::array<uint64_t, 3> reduce_grid(const Operation& op) {
  return {ceil_div(op.n, 16), ceil_div(op.m, 16), op.batch};
}

/// The f16 elements of the decoded plane of B, and the pre-pass's grid: 64 blocks (2048 k) of one row of B a
/// workgroup, a row of workgroups per row of B, one z per matrix of B.
inline uint64_t decode_plane_halves(const Operation& op) { return (op.stride_b != 0 ? op.batch : 1) * op.n * op.k; }
inline std::array<uint64_t, 3> decode_grid(const Operation& op) {
  return {ceil_div(op.k, 64 * 32), op.n, op.stride_b != 0 ? op.batch : 1};
}
/// The split parts: rows of K rounded up to whole groups of 8, three 16-bit parts an element, every product's own.
inline uint64_t split_k_padded(uint64_t k) { return ceil_div(k, 8) * 8; }
inline uint64_t split_plane_halves(const Operation& op) { return 3 * op.batch * (op.m + op.n) * split_k_padded(op.k); }
inline std::array<uint64_t, 3> split_grid(const Operation& op) {
  return {ceil_div((op.m + op.n) * split_k_padded(op.k), 8 * 256), 1, op.batch};
}
/// align_ab's planes (kernels/common/aligned_planes.glsl holds the same): K padded with zeros to a multiple of 64,
/// each operand in its stored orientation with its rows padded with zeros to a multiple of 8 elements. Per product
/// a region of A's plane then B's; an operand shared by the batch (stride 0) has product 0's only. Element (r, c) of
/// a plane (stored row r) at a_base(z) + r x ld_a + c, or b_base(z) + r x ld_b + c.
struct AlignedPlanes {
  uint64_t k = 0, rows_a = 0, ld_a = 0, rows_b = 0, ld_b = 0;
  uint64_t region() const { return rows_a * ld_a + rows_b * ld_b; }
  uint64_t a_base(const Operation& op, uint64_t z) const { return (op.stride_a != 0 ? z : 0) * region(); }
  uint64_t b_base(const Operation& op, uint64_t z) const {
    return (op.stride_b != 0 ? z : 0) * region() + rows_a * ld_a;
  }
};
inline AlignedPlanes aligned_planes(const Operation& op) {
  AlignedPlanes planes;
  planes.k = ceil_div(op.k, 64) * 64;
  const uint64_t m8 = ceil_div(op.m, 8) * 8, n8 = ceil_div(op.n, 8) * 8;
  planes.rows_a = op.trans_a ? planes.k : op.m, planes.ld_a = op.trans_a ? m8 : planes.k;
  planes.rows_b = op.trans_b ? op.n : planes.k, planes.ld_b = op.trans_b ? planes.k : n8;
  return planes;
}
/// align_ab's grid: a group of 8 elements an invocation, 256 a workgroup, one z per product.
inline std::array<uint64_t, 3> align_grid(const Operation& op) {
  return {ceil_div(aligned_planes(op).region() / 8, 256), 1, op.batch};
}

/// quantize_a's plane (kernels/quantize_a.comp and gemm_qrowdp.comp hold the same), in 32-bit words: a region per
/// matrix z of op(A) (one where A is shared by the batch), of `quantized_a_region` words from z x that. In it, unit u =
/// i x K / 32 + b (row i, block b: k = 32 b ..) has 16 words at 16 u, the block's 32 h bytes then its 32 l bytes
/// (element e in byte e % 4 of word e / 4 of each; for B in q4_0 blocks word w of each at 2w and word 4 + w at 2w + 1,
/// w < 4, so a part's low- and high-nibble words are one load), and after all M x K / 32 units the block's step d (an
/// f32) at word 16 M K / 32 + u; regions are whole 16-byte vectors.
inline uint64_t quantized_a_region(const Operation& op) {
  const uint64_t units = op.m * (op.k / 32);
  return 16 * units + ceil_div(units, 4) * 4;
}
inline uint64_t quantized_a_words(const Operation& op) {
  return (op.stride_a != 0 ? op.batch : 1) * quantized_a_region(op);
}
/// quantize_a's grid: a block eight invocations, 64 a workgroup, one z per matrix of op(A).
inline std::array<uint64_t, 3> quantize_grid(const Operation& op) {
  return {ceil_div(op.m * (op.k / 32), 8), 1, op.stride_a != 0 ? op.batch : 1};
}

/// The scratch a pre-pass writes, in f16 elements (0 for none), and its grid.
inline uint64_t prepass_halves(uint32_t prepass, const Operation& op) {
  return prepass == uint32_t(Prepass::decode_b)     ? decode_plane_halves(op)
         : prepass == uint32_t(Prepass::split_ab)   ? split_plane_halves(op)
         : prepass == uint32_t(Prepass::align_ab)   ? op.batch * aligned_planes(op).region()
         : prepass == uint32_t(Prepass::quantize_a) ? 2 * quantized_a_words(op)
                                                    : 0;
}
inline std::array<uint64_t, 3> prepass_grid(uint32_t prepass, const Operation& op) {
  return prepass == uint32_t(Prepass::decode_b)     ? decode_grid(op)
         : prepass == uint32_t(Prepass::align_ab)   ? align_grid(op)
         : prepass == uint32_t(Prepass::quantize_a) ? quantize_grid(op)
                                                    : split_grid(op);
}

/// The push constants of a run (base_* zero: for_each_dispatch sets them).
inline GemmPush push_constants(const Operation& op, uint32_t splits) {
  GemmPush p{};
  p.m = uint32_t(op.m), p.n = uint32_t(op.n), p.k = uint32_t(op.k);
  p.lda = uint32_t(op.lda), p.ldb = uint32_t(op.ldb), p.ldc = uint32_t(op.ldc);
  p.off_a = uint32_t(op.off_a), p.off_b = uint32_t(op.off_b), p.off_c = uint32_t(op.off_c);
  p.off_bias = uint32_t(op.bias ? op.bias_offset : 0);
  p.stride_a = uint32_t(op.stride_a), p.stride_b = uint32_t(op.stride_b), p.stride_c = uint32_t(op.stride_c);
  p.alpha = op.alpha, p.beta = op.beta;
  p.k_split = uint32_t(splits > 1 ? split_range_terms(op.k, splits) : op.k);
  return p;
}

/// Calls dispatch(base_x, base_y, base_z, count_x, count_y, count_z) once per dispatch that covers `grid` within
/// the device's maxComputeWorkGroupCount (`max`); the kernels add base_* (push constants) to their workgroup ids.
template <typename Dispatch>
void for_each_dispatch(const std::array<uint64_t, 3>& grid, const std::array<uint32_t, 3>& max, Dispatch&& dispatch) {
  for (uint64_t z = 0; z < grid[2]; z += max[2])
    for (uint64_t y = 0; y < grid[1]; y += max[1])
      for (uint64_t x = 0; x < grid[0]; x += max[0])
        dispatch(uint32_t(x), uint32_t(y), uint32_t(z), uint32_t(grid[0] - x < max[0] ? grid[0] - x : max[0]),
                 uint32_t(grid[1] - y < max[1] ? grid[1] - y : max[1]),
                 uint32_t(grid[2] - z < max[2] ? grid[2] - z : max[2]));
}

/// The subgroup size a pass's pipeline pins, with full subgroups: the kernel's `required` size where the device has
/// subgroup size control with full subgroups and more than one size to choose from, else 0 (nothing pinned).
inline uint32_t subgroup_size_to_pin(uint32_t required, bool size_control, uint32_t min_size, uint32_t max_size) {
  return required > 0 && size_control && min_size != max_size ? required : 0;
}

inline constexpr size_t kMaxTunedConstants = 14;

/// One kernel config as data: what its pipelines are made of and how it covers C.
struct KernelConfig {
  uint32_t module = 0;         ///< the main pass's SPIR-V module (an index into the caller's module list)
  uint32_t reduce_module = 0;  ///< the reduce pass's, where the split is not finished in the main pass
  uint32_t workgroup_size_id = 0, workgroup_size = 1;
  std::array<SpecConstant, kMaxTunedConstants> tuned{};  ///< the config's parameters that are constants
  uint32_t tuned_count = 0;
  uint32_t required_subgroup_size = 0;  ///< pinned with full subgroups where the device can (0: any)
  DispatchRule dispatch;
  uint32_t prepass_module = 0;  ///< the pre-pass's module, where the rule has one
};

inline constexpr size_t kMaxPassConstants = 1 + kMaxTunedConstants + kOperationConstants;

/// One compute dispatch (or several, for_each_dispatch) of a pipeline made from `module` and `constants`, with its
/// push-constant block (base_* zero: for_each_dispatch sets them).
struct Pass {
  uint32_t module = 0;
  std::array<SpecConstant, kMaxPassConstants> constants{};
  uint32_t constant_count = 0;
  uint32_t required_subgroup_size = 0;
  std::array<uint64_t, 3> grid{};
  GemmPush push{};
};

inline constexpr size_t kMaxPasses = 3;

/// A run: the passes in order (pre-pass, main, reduce; main always, the others where the rule has them), each after
/// a barrier on the ones before it. Six storage buffers at bindings 0-5: A, B, C, bias (any buffer where there is
/// none), the scratch (`scratch_floats` floats: split-k's planes, splits x batch x M x N, or the pre-pass's output)
/// and split-k's arrival counters (`arrival_counters` uint32s, zero).
struct Plan {
  std::array<Pass, kMaxPasses> passes{};
  uint32_t pass_count = 0;
  uint32_t main_pass = 0;  ///< the index of the main pass in `passes`
  uint64_t scratch_floats = 0;
  uint64_t arrival_counters = 0;
};

/// The run of `config` for `op`. `epilogue` false: the product alone (gemmtune's unfused check).
inline Plan plan(const KernelConfig& config, const Operation& op, bool epilogue = true) {
  Plan out;
  const DispatchRule& rule = config.dispatch;
  out.arrival_counters = arrival_counters(rule, op);
  const bool finishes_in_main = rule.splits == 1 || out.arrival_counters > 0;
  out.scratch_floats = rule.splits > 1 ? uint64_t(rule.splits) * op.batch * op.m * op.n : 0;
  const GemmPush push = push_constants(op, rule.splits);
  Pass pre;
  if (rule.prepass != uint32_t(Prepass::none)) {
    pre.module = config.prepass_module;
    pre.grid = prepass_grid(rule.prepass, op);
    pre.push = push;
    for (const SpecConstant& c : operation_constants(op, false, 1)) pre.constants[pre.constant_count++] = c;
    out.scratch_floats = (prepass_halves(rule.prepass, op) + 1) / 2;
  }
  auto main_pass = [&](bool with_epilogue) {
    Pass main;
    main.module = config.module;
    main.required_subgroup_size = config.required_subgroup_size;
    main.grid = main_grid(rule, op);
    main.push = push;
    main.constants[main.constant_count++] = {config.workgroup_size_id, config.workgroup_size};
    for (uint32_t i = 0; i < config.tuned_count; ++i) main.constants[main.constant_count++] = config.tuned[i];
    for (const SpecConstant& c : operation_constants(op, with_epilogue, rule.splits))
      main.constants[main.constant_count++] = c;
    return main;
  };
  if (rule.prepass != uint32_t(Prepass::none)) out.passes[out.pass_count++] = pre;
  out.main_pass = out.pass_count;
  out.passes[out.pass_count++] = main_pass(epilogue && finishes_in_main);
  if (!finishes_in_main) {
    Pass& reduce = out.passes[out.pass_count++];
    reduce.module = config.reduce_module;
    reduce.grid = reduce_grid(op);
    reduce.push = push;
    for (const SpecConstant& c : operation_constants(op, epilogue, rule.splits))
      reduce.constants[reduce.constant_count++] = c;
  }
  return out;
}

/// A driver version as gemmtune's tables record it (VkPhysicalDeviceProperties::driverVersion, decoded per vendor):
/// NVIDIA's 10.8.8.6 bits, Intel's 18.14 on Windows, otherwise Vulkan's version encoding.
inline std::string driver_version_text(uint32_t vendor_id, uint32_t raw) {
  char buf[64];
  if (vendor_id == 0x10DE) {
    std::snprintf(buf, sizeof buf, "%u.%u.%u.%u", (raw >> 22) & 0x3ff, (raw >> 14) & 0xff, (raw >> 6) & 0xff,
                  raw & 0x3f);
    return buf;
  }
#if defined(_WIN32)
  if (vendor_id == 0x8086) {
    std::snprintf(buf, sizeof buf, "%u.%u", raw >> 14, raw & 0x3fff);
    return buf;
  }
#endif
  std::snprintf(buf, sizeof buf, "%u.%u.%u", (raw >> 22) & 0x7f, (raw >> 12) & 0x3ff, raw & 0xfff);
  return buf;
}

}  // namespace gemmtune::rules
