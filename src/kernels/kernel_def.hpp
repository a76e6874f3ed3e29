// The declarative description of a kernel family: its parameters (specialization constants), applicability,
// named constraints, launch geometry and SPIR-V per input type. The generic tuner and runner do the rest.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/dispatch_rules.hpp"
#include "core/problem.hpp"
#include "core/shape_needs.hpp"
#include "core/summation_order.hpp"
#include "vk/device_info.hpp"

namespace gemmtune {

/// One tunable: a specialization constant and the values the sweep tries.
inline constexpr uint32_t kNoSpecConstant = UINT32_MAX;  ///< a parameter the runner reads itself (split-k's S)

struct ParamSpec {
  std::string name;      ///< short lower-case name used in config names ("bm")
  uint32_t constant_id;  ///< or kNoSpecConstant
  std::vector<uint32_t> values;
  /// A parameter added to a family later: with this value it is left out of config names, so names written
  /// before it existed (tables, rerun lines) still name the same kernel.
  std::optional<uint32_t> unnamed_value = std::nullopt;
  /// A parameter only some input types have (the decoding pre-pass: weights in blocks): for the others only its
  /// `unnamed_value` is swept. Unset: every type.
  std::function<bool(DType)> applies = nullptr;
  /// A parameter some problems gain nothing from (the aligning pre-pass where every tile already stages on the fast
  /// path): for those only its `unnamed_value` is swept, though the others run them too. Unset: every problem.
  std::function<bool(const GemmProblem&)> swept_where = nullptr;
};

/// One point of a family's parameter space, values in the order of the family's ParamSpecs.
struct Config {
  std::vector<std::pair<std::string, uint32_t>> values;
  uint32_t get(std::string_view name) const;  ///< throws std::out_of_range for an unknown name
  /// The value, or `fallback` where the config has no such parameter (one written before it existed).
  uint32_t get_or(std::string_view name, uint32_t fallback) const;
};

struct KernelFamily;
/// A named constraint: returns the reason when a config cannot serve the problem on the device.
struct Constraint {
  std::string code;  ///< stable reason code ("shared_memory", "invocations", ...)
  std::function<std::optional<std::string>(const KernelFamily&, const Config&, const GemmProblem&,
                                           const vk::DeviceInfo&)>
      check;
  /// A layout rule: the check reads the config alone (warp tiles that tile the workgroup's tile), so a config that
  /// breaks it is no kernel of the family on any problem: all_configs() leaves it out, and no search space lists it
  /// as pruned (warptile's parameter product is 663,552 combinations, 23,226 of them kernels).
  bool layout_rule = false;
};

/// Specialization constants set from the problem (not tuned): rules::operation_constants,
/// kernels/common/gemm_common.glsl.
namespace problem_constant = rules::constant_id;

struct KernelFamily {
  std::string name;   ///< variant name in tables and config names ("tiled")
  std::string color;  ///< its bars' colour in `gemmtune report` ("#4e79a7")
  std::vector<ParamSpec> params;
  /// Why the family cannot serve a problem on a device at all (any config), or nullopt. Unset: always applicable.
  std::function<std::optional<std::string>(const GemmProblem&, const vk::DeviceInfo&)> not_applicable;
  /// Why the device lacks what the family's kernel for an input type needs beyond a compute queue (cooperative
  /// matrices of some shape and type, say), or nullopt. Unset: nothing. `devices` reports it per input type.
  std::function<std::optional<std::string>(DType, const vk::DeviceInfo&)> device_unsupported;
  /// The error model: the bound its float results are held to (max|gpu - ref| / max|ref|), where the family
  /// computes with less than its input type's precision or more; unset: the input type's documented bound.
  std::function<double(DType)> error_model;
  double error_bound(DType dtype) const { return error_model ? error_model(dtype) : dtype_error_bound(dtype); }
  /// The arithmetic its results come from, recorded with each result (table, lookup, export, kit): "native", the
  /// input type's own (f32 FMAs, 16-bit products summed in f32, exact integers), or the name of an emulation whose
  /// error model matches the input type's bounds by other means ("bf16x6": f32 split into three bfloat16 parts, six
  /// products on the matrix units). `--native-f32` leaves out every family that is not "native".
  std::string numerics = std::string(kNativeNumerics);
  /// Subgroup size the kernel is written for (0: any). Pinned with full subgroups where the device can select it.
  uint32_t required_subgroup_size = 0;
  std::vector<Constraint> constraints;
  uint32_t workgroup_size_constant_id = 0;
  std::function<uint32_t(const Config&)> workgroup_size;
  std::function<uint64_t(const Config&, DType)> shared_bytes;  ///< shared memory a config declares for an input type
  /// Where the declaration also depends on the problem (fewrows: its rows of op(A)), the bytes for that problem,
  /// which the shared-memory constraint checks; `shared_bytes` is then the bound over every problem it serves.
  std::function<uint64_t(const Config&, const GemmProblem&)> problem_shared_bytes;
  /// What a config needs of M, N and K on any device: the numbers the family's shape constraints check (a test holds
  /// them to agree), which lookup and export use for shapes the config was not tuned on. Unset: any shape.
  std::function<ShapeNeeds(const Config&, DType, Layout)> shape_needs;
  /// How a config covers C (tiles, split-k ranges and how they are finished; src/core/dispatch_rules.hpp, which
  /// the runner plans every run with and kits copy). Unset only for the test variants, which set `grid_override`.
  std::function<rules::DispatchRule(const Config&, DType)> dispatch_rule;
  /// The test variants' main-pass grid, whatever the problem (a dispatch that never ends, a lost device).
  std::function<std::array<uint64_t, 3>(const Config&, const GemmProblem&)> grid_override;
  /// Workgroup counts (x, y, z) of the main pass; may exceed the device's limits (the runner splits the grid).
  std::array<uint64_t, 3> grid(const Config& config, const GemmProblem& problem) const;
  /// The main pass's module per input type (empty where there is none). Unset: the registry gives the family its
  /// name's modules, "<name>_<dtype>" (with_named_modules).
  std::function<std::span<const uint32_t>(DType)> spirv;
  /// The main pass's module per input type for configs whose dispatch rule has a pre-pass (reading what the pre-pass
  /// wrote: B decoded to f16, or A's and B's bfloat16 parts), and which pre-pass that is. Unset: no such configs.
  std::function<std::span<const uint32_t>(DType)> plane_spirv;
  /// Which pre-pass those configs run for an input type (none: no such configs for it). Unset: none for any.
  std::function<rules::Prepass(DType)> prepass_kind;
  rules::Prepass prepass_for(DType dtype) const { return prepass_kind ? prepass_kind(dtype) : rules::Prepass::none; }
  /// An alternative module used instead of `spirv` on devices where `alternative_applies` says so (the integer
  /// kernels' packed dot products, where the device has shaderIntegerDotProduct). Unset: none.
  std::function<std::span<const uint32_t>(DType)> alternative_spirv;
  std::function<bool(DType, const vk::DeviceInfo&)> alternative_applies;
  /// The module a pipeline for `dtype` is made from on `device` (`allow_alternative` false: always `spirv`).
  std::span<const uint32_t> module_for(DType dtype, const vk::DeviceInfo& device, bool allow_alternative = true) const;
  /// The main pass's module of `config`: `plane_spirv` where its rule has a pre-pass, else module_for.
  std::span<const uint32_t> main_module(const Config& config, DType dtype, const vk::DeviceInfo& device,
                                        bool allow_alternative = true) const;
  /// The search space of `problem` holds `config` (before constraints): every parameter the input type lacks
  /// (ParamSpec::applies) or the problem gains nothing from (ParamSpec::swept_where) at its unnamed value.
  bool sweeps(const Config& config, const GemmProblem& problem) const;
  /// The rule of `config` has a pre-pass (`prepass_kind`'s).
  bool runs_prepass(const Config& config, DType dtype) const;
  /// Split-k: ranges of k (1 = none; the dispatch rule's). With more than one range the main pass writes raw
  /// sums to scratch planes and the reduce pass (splitk_reduce.comp) adds them and applies the epilogue.
  uint32_t splits(const Config& config) const;
  /// Split-k finished in the main pass, without the reduce pass (rules::DispatchRule::one_pass_split): each
  /// workgroup writes its range's raw sums to the scratch planes and counts its arrival on its block of C
  /// (binding 5, counters that start at zero); the last workgroup of a block to arrive adds the planes in range
  /// order, applies the epilogue and resets the count. How many counters a config needs for a problem; 0 where
  /// the reduce pass finishes it.
  uint64_t arrival_counters(const Config& config, const GemmProblem& problem) const;
  /// Some configs finish split-k in the main pass (`one_pass_split`), and with `reduce_pass_too` some through the
  /// reduce pass instead (warptile's REDUCE_PASS), so that module is among the family's.
  bool one_pass_split = false;
  bool reduce_pass_too = false;
  /// Screening hints. `screening_rank` orders the family's configs for a problem (lower first; unset: the
  /// generic order by workgroup size, work per invocation and tile size). `screening_weight` is how many of
  /// the family's configs go into each round of the round-robin over families (a variant known to be much
  /// faster where it applies gets more of a short budget).
  std::function<double(const Config&, const GemmProblem&, const vk::DeviceInfo&)> screening_rank;
  uint32_t screening_weight = 1;
  /// Streams B once for a few rows of op(A) (fewrows, rowdot): for problems of M <= 16 these families open each
  /// screening round, and other families' tiles taller than 4 x M go last.
  bool few_rows = false;
  /// Runs on the matrix units (cooperative matrices): their measured rate, not the FMA units', is its ceiling.
  bool matrix_units = false;
  /// For decoding-sized problems, the few-rows family's configs per screening round (unset: 4); a family with more
  /// opens the round before the others.
  std::function<uint32_t(const GemmProblem&)> decoding_weight;

  /// Deterministic mode's summation order of a config for a float problem on a device, which the runner models on
  /// the host and compares bit for bit. Unset: the family does not serve deterministic float problems.
  std::function<SummationOrder(const Config&, const GemmProblem&, const vk::DeviceInfo&)> summation_order;

  /// Deterministic config name: "<family>_<dtype>_<param><value>..." ("tiled_f32_bm64_bn64_bk16_tm4_tn4"),
  /// parameters at their `unnamed_value` left out.
  std::string config_name(const Config& config, DType dtype) const;
  /// The name with every parameter, those at their `unnamed_value` too (accepted wherever a name is looked up).
  std::string full_config_name(const Config& config, DType dtype) const;
  /// The cartesian product of the parameter values, in declaration order (the last parameter varying fastest),
  /// less the combinations that break a layout rule: the family's configs.
  std::vector<Config> all_configs() const;
  /// The configs of all_configs() that `problem` sweeps (sweeps()), in the same order.
  std::vector<Config> swept_configs(const GemmProblem& problem) const;
  /// The layout rule a combination of the parameter values breaks, as "<code>: <reason>", or nullopt.
  std::optional<std::string> broken_layout_rule(const Config& config) const;
  /// all_configs() as listed once, shared by the family's copies; it records the parameter values it was listed for,
  /// so a copy whose values were narrowed (a space file) lists its own. Give such a copy a new, empty list.
  struct ConfigList {
    std::once_flag listed;
    std::vector<std::vector<uint32_t>> values;
    std::vector<Config> configs;
  };
  std::shared_ptr<ConfigList> config_list = std::make_shared<ConfigList>();
  /// Every SPIR-V module a config of the family may dispatch for `dtype`: the main pass, its alternative, the
  /// split-k reduce pass where the family splits k through it, and the unfused epilogue pass (verification).
  std::vector<std::span<const uint32_t>> modules(DType dtype) const;
  /// "fnv1a64:<16 hex digits>" over `modules(dtype)` in order: recorded with every result, so a table entry any
  /// of whose kernels has changed since can be told apart (stale).
  std::string kernel_hash(DType dtype) const;
};

/// The module indices kernel_config gives a config's passes (rules::KernelConfig, rules::Pass::module).
namespace kernel_config_modules {
inline constexpr uint32_t main = 0, reduce = 1, prepass = 2;
}

/// A config as data for dispatch planning (rules::plan), its modules numbered as kernel_config_modules.
rules::KernelConfig kernel_config(const KernelFamily& family, const Config& config, DType dtype);

/// Rows of C a workgroup covers by columns (`rows` = `bm`), split-k ranges in z (tiled, coopmat, warptile).
rules::DispatchRule tile_rule(uint32_t bm, uint32_t bn, uint32_t splits);
/// A workgroup covers `columns` of every row; split-k ranges side by side in x (the decoding families), finished
/// in the main pass where `one_pass`.
rules::DispatchRule column_rule(uint32_t columns, uint32_t splits, bool one_pass);

/// FNV-1a 64 over the modules' bytes in order, as "fnv1a64:<16 hex digits>" (KernelFamily::kernel_hash).
std::string modules_hash(const std::vector<std::span<const uint32_t>>& modules);

/// A family's deterministic order for a problem: `parts` as the kind has them, `splits` ranges of
/// split_range_terms(K, splits) terms.
SummationOrder ordered_sums(SummationOrder::Kind kind, uint32_t parts, uint32_t splits, const GemmProblem& problem);

/// Split-k ranges (a "splits" parameter; 1 = none): ceil(K/S) rounded to a multiple of 32, at least 64 terms
/// each, the last one included.
Constraint split_range_constraint();

/// Split-k's scratch planes (a "splits" parameter): SPLITS x batch x M x N floats within one storage buffer's range.
Constraint split_scratch_constraint();

/// Split-k finished in one pass (KernelFamily::arrival_counters) counts arrivals with a device-scope atomic, which a
/// device that has the Vulkan memory model (enabled for the matrix units) but not vulkanMemoryModelDeviceScope forbids.
Constraint split_device_scope_constraint();

/// Screening cost of a split count for the decoding families, half a point per doubling away from the count
/// wanted: none where the unsplit grid's `blocks` reach `fill_below`, otherwise the fewest splits (at most
/// `max_splits`) that bring the grid to `target` workgroups.
double split_fill_cost(uint64_t splits, double blocks, double fill_below, double target, double max_splits);

/// What the split-k tile families (coopmat, coopmat2, bf16x6: parameters "bm", "bn", "splits") share, set after
/// their own constraints: the split-k range and scratch rules, then the device's limits; BM x BN tiles of C with the
/// split-k ranges in z (the reduce pass finishes them); the splits as their only shape need.
void describe_split_tiles(KernelFamily& f);

/// What the row-streaming families (rowdot, qrowdot, qrowdp: parameters "wg", "rows", "splits" where k is split)
/// share: ROWS x M accumulators an invocation (M up to `max_rows`), held to `max_accumulators` ("registers", then
/// `extra`, then the one-pass split-k rules where there is a "splits"); WG invocations; every subgroup's sums and
/// split-k's arrival flag in shared memory; ROWS columns of C a workgroup, split-k finished by the last workgroup to
/// arrive; the few-rows screening order.
void describe_row_streaming(KernelFamily& f, uint64_t max_rows, uint64_t max_accumulators,
                            std::vector<Constraint> extra = {});
/// The rules of the block parts the quantized row families (qrowdot, qrowdp: parameters "lanes", "ahead", "groups",
/// kernels/common/quant_parts.glsl) stream: AHEAD blocks ahead only for halves and quarters, the words of at most
/// 128 codes ahead (AHEAD x ROWS x 32 / LANES) held in registers, and groups of whole subgroups of the largest size.
std::vector<Constraint> block_part_constraints();
/// What the row families on the matrix units (rowmma, qrowmma: parameters "sgk", "frags", "splits") share: the
/// device's limits, then `own` constraints, then the split-k rules; SGK subgroups of 32; per subgroup op(A)'s staged
/// fragment (16 rows of 24 halves), 1 KiB a block of 16 rows of B (its staged fragment, then its f32 sums) and the
/// flag of the fragment-layout check; 16 FRAGS columns of C a workgroup, split-k finished by the reduce pass; the
/// few-rows screening order on the matrix units.
void describe_fragment_rows(KernelFamily& f, std::vector<Constraint> own);
/// Why a device cannot run their reduction (a butterfly of subgroup shuffles over subgroups of 8 or more), or
/// nullopt; `who` names the family in the reason.
std::optional<std::string> subgroup_reduction_unsupported(const vk::DeviceInfo& device, const std::string& who);

/// Split-k's arrival flag in shared memory (common/split_one_pass.glsl), counted by the families that include it.
inline constexpr uint64_t kSplitFlagBytes = 4;

/// Screening cost of a matrix-unit tile for a problem (lower first): tiles of 128x128 where they alone give a
/// large GPU about a wave (64 workgroups), 64x64 where they do not, 4 per doubling away; split-k none where
/// the tiles fill a large GPU's slots (256), otherwise the fewest splits that reach 64 workgroups (under 64 tiles)
/// or 256 (64 to 255 tiles: splitting them first, not splitting next).
double tile_fill_cost(uint64_t bm, uint64_t bn, uint64_t splits, const GemmProblem& problem);

/// Screening cost of a matrix-unit tile where the device lists its compute units (4 per doubling of the predicted
/// time): the busiest unit's work, whole waves of tiles times a tile's multiply-adds, each weighted by its staging
/// overhead (1 + 64/bm + 64/bn: fragments loaded per multiply), plus split-k's reduce pass; elsewhere
/// tile_fill_cost. `tile_wave_time` is the prediction itself, in multiply-adds of the busiest unit.
double tile_wave_cost(uint64_t bm, uint64_t bn, uint64_t splits, const GemmProblem& problem,
                      const vk::DeviceInfo& device);
double tile_wave_time(uint64_t bm, uint64_t bn, uint64_t splits, const GemmProblem& problem, uint32_t compute_units);

/// A pre-pass (rules::Prepass) as a tuned parameter of a tile family ("bm" x "bn" tiles): "prepass" 1 runs the
/// pre-pass `kind` gives the input type and then `plane_module`'s kernel on its output, 0 (the name's default) does
/// the work while staging; types whose kind is none sweep 0 alone. decode_b: weights in blocks decoded once into f16
/// (kernels/decode_blocks.comp); split_ab: f32 A and B split once into bfloat16 parts (kernels/split_planes.comp);
/// align_ab: 16-bit A and B copied once to 16-byte rows (kernels/align_planes.comp). Each needs one split-k range
/// (its output takes the scratch) and fast mode. Where the family ranks its configs, the pre-pass goes first where
/// the staging would repeat its work at least three times (decoding: rows of tiles; the others: rows and columns of
/// tiles). `swept_where`:
/// the problems it is swept for (ParamSpec::swept_where; unset: every problem of a type it serves). Call after the
/// family's dispatch rule and screening rank are set.
void describe_prepass(KernelFamily& f, std::function<rules::Prepass(DType)> kind, const std::string& plane_module,
                      std::function<bool(const GemmProblem&)> swept_where = nullptr);

/// Constraints every family shares: workgroup size against maxComputeWorkGroupInvocations and
/// maxComputeWorkGroupSize[0], shared memory against maxComputeSharedMemorySize.
std::vector<Constraint> device_limit_constraints();

}  // namespace gemmtune
