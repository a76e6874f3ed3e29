#include "kernels/kernel_def.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "kernels/spirv.hpp"

namespace gemmtune {

uint32_t Config::get(std::string_view name) const {
  for (const auto& [key, value] : values) {
    if (key == name) return value;
  }
  throw std::out_of_range("config has no parameter '" + std::string(name) + "'");
}

uint32_t Config::get_or(std::string_view name, uint32_t fallback) const {
  for (const auto& [key, value] : values) {
    if (key == name) return value;
  }
  return fallback;
}

SummationOrder ordered_sums(SummationOrder::Kind kind, uint32_t parts, uint32_t splits, const GemmProblem& problem) {
  SummationOrder order;
  order.kind = kind;
  order.parts = parts;
  order.splits = splits;
  order.range_terms = splits > 1 ? split_range_terms(problem.shape.k, splits) : problem.shape.k;
  return order;
}

std::span<const uint32_t> KernelFamily::module_for(DType dtype, const vk::DeviceInfo& device,
                                                   bool allow_alternative) const {
  if (allow_alternative && alternative_spirv && alternative_applies && alternative_applies(dtype, device)) {
    std::span<const uint32_t> alternative = alternative_spirv(dtype);
    if (!alternative.empty()) return alternative;
  }
  return spirv(dtype);
}

std::span<const uint32_t> KernelFamily::main_module(const Config& config, DType dtype, const vk::DeviceInfo& device,
                                                    bool allow_alternative) const {
  if (runs_prepass(config, dtype)) return plane_spirv(dtype);
  return module_for(dtype, device, allow_alternative);
}

namespace {
/// The problem sweeps the parameter's values: its input type has it and the problem gains from it.
bool param_swept(const ParamSpec& p, const GemmProblem& problem) {
  return (!p.applies || p.applies(problem.dtype)) && (!p.swept_where || p.swept_where(problem));
}
}  // namespace

bool KernelFamily::sweeps(const Config& config, const GemmProblem& problem) const {
  for (const ParamSpec& p : params) {
    if (!param_swept(p, problem) && config.get(p.name) != p.unnamed_value) return false;
  }
  return true;
}

bool KernelFamily::runs_prepass(const Config& config, DType dtype) const {
  return plane_spirv && dispatch_rule && dispatch_rule(config, dtype).prepass != uint32_t(rules::Prepass::none);
}

std::string modules_hash(const std::vector<std::span<const uint32_t>>& modules) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a over the modules' bytes, in order
  for (std::span<const uint32_t> module : modules) {
    for (uint32_t word : module) {
      for (int b = 0; b < 4; ++b) {
        h ^= (word >> (8 * b)) & 0xffu;
        h *= 0x100000001b3ull;
      }
    }
  }
  char text[32];
  std::snprintf(text, sizeof text, "fnv1a64:%016llx", static_cast<unsigned long long>(h));
  return text;
}

std::vector<std::span<const uint32_t>> KernelFamily::modules(DType dtype) const {
  std::vector<std::span<const uint32_t>> out{spirv(dtype)};
  if (alternative_spirv) out.push_back(alternative_spirv(dtype));
  // Split-k through the reduce pass: any "splits" value above 1 without the family's own one-pass finish.
  bool reduces = false;
  for (const ParamSpec& p : params)
    if (p.name == "splits")
      for (uint32_t v : p.values) reduces |= v > 1 && (!one_pass_split || reduce_pass_too);
  if (reduces) out.push_back(splitk_reduce_spirv(dtype));
  if (plane_spirv && !plane_spirv(dtype).empty()) {
    out.push_back(plane_spirv(dtype));
    out.push_back(prepass_spirv(prepass_for(dtype), dtype));
  }
  out.push_back(epilogue_spirv());
  return out;
}

std::string KernelFamily::kernel_hash(DType dtype) const { return modules_hash(modules(dtype)); }

std::array<uint64_t, 3> KernelFamily::grid(const Config& config, const GemmProblem& problem) const {
  if (grid_override) return grid_override(config, problem);
  return rules::main_grid(dispatch_rule(config, problem.dtype), operation_of(problem));
}

uint32_t KernelFamily::splits(const Config& config) const {
  return dispatch_rule ? dispatch_rule(config, DType::f32).splits : 1u;  // the ranges do not depend on the type
}

uint64_t KernelFamily::arrival_counters(const Config& config, const GemmProblem& problem) const {
  if (!dispatch_rule) return 0;
  return rules::arrival_counters(dispatch_rule(config, problem.dtype), operation_of(problem));
}

rules::KernelConfig kernel_config(const KernelFamily& family, const Config& config, DType dtype) {
  rules::KernelConfig k;
  k.module = kernel_config_modules::main;
  k.reduce_module = kernel_config_modules::reduce;
  k.prepass_module = kernel_config_modules::prepass;
  k.workgroup_size_id = family.workgroup_size_constant_id;
  k.workgroup_size = family.workgroup_size(config);
  for (const ParamSpec& p : family.params) {
    if (p.constant_id == kNoSpecConstant) continue;
    if (k.tuned_count == k.tuned.size()) throw std::logic_error(family.name + ": more constants than a plan holds");
    // A parameter added later takes its unnamed value in configs written before it (tables, tests).
    k.tuned[k.tuned_count++] = {p.constant_id,
                                p.unnamed_value ? config.get_or(p.name, *p.unnamed_value) : config.get(p.name)};
  }
  k.required_subgroup_size = family.required_subgroup_size;
  if (family.dispatch_rule) k.dispatch = family.dispatch_rule(config, dtype);
  return k;
}

void describe_prepass(KernelFamily& f, std::function<rules::Prepass(DType)> kind, const std::string& plane_module,
                      std::function<bool(const GemmProblem&)> swept_where) {
  f.params.push_back({"prepass", kNoSpecConstant, {0, 1}, 0});
  f.params.back().applies = [kind](DType d) { return kind(d) != rules::Prepass::none; };
  f.params.back().swept_where = swept_where;
  f.prepass_kind = kind;
  f.plane_spirv = spirv_modules_named(plane_module);
  f.constraints.push_back(
      {"prepass",
       [](const KernelFamily& family, const Config& c, const GemmProblem& p,
          const vk::DeviceInfo& d) -> std::optional<std::string> {
         if (c.get_or("prepass", 0) == 0) return std::nullopt;
         const rules::Prepass pass = family.prepass_for(p.dtype);
         if (pass == rules::Prepass::none)
           return family.name + " has no pre-pass for " + std::string(dtype_name(p.dtype)) + " inputs";
         if (p.mode == Mode::deterministic)
           return std::string("fast mode only: the pre-pass's parts are outside the deterministic order's model");
         const uint64_t bytes = rules::prepass_halves(uint32_t(pass), operation_of(p)) * 2;
         if (bytes > d.max_storage_buffer_range)
           return "the pre-pass's output needs " + std::to_string(bytes) + " B, limit " +
                  std::to_string(d.max_storage_buffer_range) + " B";
         return std::nullopt;
       }});
  f.constraints.push_back({"prepass_splits",
                           [](const KernelFamily& family, const Config& c, const GemmProblem&,
                              const vk::DeviceInfo&) -> std::optional<std::string> {
                             if (c.get_or("prepass", 0) == 1 && family.splits(c) > 1)
                               return std::string(
                                   "the pre-pass's output takes the scratch buffer split-k's planes use");
                             return std::nullopt;
                           },
                           true});
  f.dispatch_rule = [rule = f.dispatch_rule, kind](const Config& c, DType d) {
    rules::DispatchRule r = rule(c, d);
    r.prepass = c.get_or("prepass", 0) == 1 ? uint32_t(kind(d)) : 0u;
    return r;
  };
  if (!f.screening_rank) return;
  f.screening_rank = [rank = f.screening_rank, kind, swept_where](const Config& c, const GemmProblem& p,
                                                                  const vk::DeviceInfo& d) {
    // Decoding repeats B once a row of tiles; the split and the copy repeat A once a column of tiles and B once a row.
    const bool decode = kind(p.dtype) == rules::Prepass::decode_b;
    const uint64_t rows = rules::ceil_div(p.shape.m, c.get("bm")), cols = rules::ceil_div(p.shape.n, c.get("bn"));
    const bool once = (decode ? rows : std::min(rows, cols)) >= 3;
    const bool swept = kind(p.dtype) != rules::Prepass::none && (!swept_where || swept_where(p));
    return rank(c, p, d) + (swept && (c.get_or("prepass", 0) == 1) != once ? 1.0 : 0.0);
  };
}

rules::DispatchRule tile_rule(uint32_t bm, uint32_t bn, uint32_t splits) {
  rules::DispatchRule rule;
  rule.columns = bn;
  rule.rows = bm;
  rule.splits = splits;
  return rule;
}

rules::DispatchRule column_rule(uint32_t columns, uint32_t splits, bool one_pass) {
  rules::DispatchRule rule;
  rule.columns = columns;
  rule.splits = splits;
  rule.splits_along_x = true;
  rule.one_pass_split = one_pass;
  return rule;
}

std::string KernelFamily::config_name(const Config& config, DType dtype) const {
  std::string s = name + "_" + std::string(dtype_token(dtype));
  for (size_t i = 0; i < config.values.size(); ++i) {
    const auto& [key, value] = config.values[i];
    if (i < params.size() && params[i].name == key && params[i].unnamed_value == value) continue;
    s.append("_").append(key).append(std::to_string(value));
  }
  return s;
}

std::string KernelFamily::full_config_name(const Config& config, DType dtype) const {
  std::string s = name + "_" + std::string(dtype_token(dtype));
  for (const auto& [key, value] : config.values) s.append("_").append(key).append(std::to_string(value));
  return s;
}

namespace {

std::vector<std::vector<uint32_t>> param_values(const std::vector<ParamSpec>& params) {
  std::vector<std::vector<uint32_t>> values;
  for (const ParamSpec& p : params) values.push_back(p.values);
  return values;
}

/// The combinations of the parameter values that break no layout rule, the last parameter varying fastest: one
/// config is filled in place and copied out where it is a kernel (warptile's product runs to 663,552).
std::vector<Config> listed_configs(const KernelFamily& family) {
  const std::vector<ParamSpec>& params = family.params;
  size_t count = 1;
  for (const ParamSpec& p : params) count *= p.values.size();
  std::vector<Config> out;
  Config config;
  for (const ParamSpec& p : params) config.values.push_back({p.name, 0});
  for (size_t i = 0; i < count; ++i) {
    size_t rest = i;
    for (size_t j = params.size(); j-- > 0;) {
      config.values[j].second = params[j].values[rest % params[j].values.size()];
      rest /= params[j].values.size();
    }
    if (!family.broken_layout_rule(config)) out.push_back(config);
  }
  return out;
}

}  // namespace

std::optional<std::string> KernelFamily::broken_layout_rule(const Config& config) const {
  // A layout rule reads the config alone (Constraint::layout_rule): any problem and device will do.
  static const GemmProblem any_problem;
  static const vk::DeviceInfo any_device;
  for (const Constraint& c : constraints) {
    if (!c.layout_rule) continue;
    if (auto reason = c.check(*this, config, any_problem, any_device)) return c.code + ": " + *reason;
  }
  return std::nullopt;
}

std::vector<Config> KernelFamily::all_configs() const {
  ConfigList& list = *config_list;
  std::call_once(list.listed, [&] {
    list.values = param_values(params);
    list.configs = listed_configs(*this);
  });
  if (list.values != param_values(params)) return listed_configs(*this);  // a copy with values of its own
  return list.configs;
}

std::vector<Config> KernelFamily::swept_configs(const GemmProblem& problem) const {
  std::vector<std::optional<uint32_t>> only;  // per parameter: the one value swept (its unnamed value), or any
  for (const ParamSpec& p : params) {
    if (param_swept(p, problem)) {
      only.push_back(std::nullopt);
    } else if (p.unnamed_value) {
      only.push_back(p.unnamed_value);
    } else {
      return {};  // sweeps() holds no config of the family for this problem
    }
  }
  std::vector<Config> out;
  for (Config& config : all_configs()) {
    bool swept = true;
    for (size_t j = 0; j < only.size() && swept; ++j) swept = !only[j] || config.values[j].second == *only[j];
    if (swept) out.push_back(std::move(config));
  }
  return out;
}

Constraint split_range_constraint() {
  return {"k_ranges",
          [](const KernelFamily&, const Config& c, const GemmProblem& p,
             const vk::DeviceInfo&) -> std::optional<std::string> {
            const uint32_t s = c.get("splits");
            if (split_ranges_fit(p.shape.k, s)) return std::nullopt;
            return "K = " + std::to_string(p.shape.k) + " does not give " + std::to_string(s) +
                   " ranges of at least 64 terms (multiples of 32)";
          }};
}

Constraint split_scratch_constraint() {
  return {"scratch",
          [](const KernelFamily&, const Config& c, const GemmProblem& p,
             const vk::DeviceInfo& d) -> std::optional<std::string> {
            const uint64_t floats = uint64_t(c.get("splits")) * p.shape.batch * p.shape.m * p.shape.n;
            if (c.get("splits") > 1 && (floats > UINT32_MAX || floats * 4 > d.max_storage_buffer_range)) {
              return "scratch planes need " + std::to_string(floats * 4) + " B, limit " +
                     std::to_string(std::min<uint64_t>(d.max_storage_buffer_range, uint64_t(UINT32_MAX) * 4)) + " B";
            }
            return std::nullopt;
          }};
}

Constraint split_device_scope_constraint() {
  return {"device_scope",
          [](const KernelFamily& f, const Config& c, const GemmProblem& p,
             const vk::DeviceInfo& d) -> std::optional<std::string> {
            // Only where the split finishes in the main pass: the reduce pass counts nothing.
            const bool counts = f.dispatch_rule && f.dispatch_rule(c, p.dtype).one_pass_split && f.splits(c) > 1;
            if (counts && d.matrix.memory_model && !d.matrix.memory_model_device_scope)
              return std::string("split-k finished in one pass needs vulkanMemoryModelDeviceScope");
            return std::nullopt;
          }};
}

void describe_split_tiles(KernelFamily& f) {
  f.constraints.push_back(split_range_constraint());
  f.constraints.push_back(split_scratch_constraint());
  for (Constraint& c : device_limit_constraints()) f.constraints.push_back(std::move(c));
  f.dispatch_rule = [](const Config& c, DType) { return tile_rule(c.get("bm"), c.get("bn"), c.get("splits")); };
  f.shape_needs = [](const Config& c, DType, Layout) {
    ShapeNeeds needs;
    needs.splits = c.get("splits");
    return needs;
  };
}

void describe_fragment_rows(KernelFamily& f, std::vector<Constraint> own) {
  f.constraints = device_limit_constraints();
  for (Constraint& c : own) f.constraints.push_back(std::move(c));
  f.constraints.push_back(split_range_constraint());
  f.constraints.push_back(split_scratch_constraint());
  f.workgroup_size_constant_id = 0;
  f.required_subgroup_size = 32;
  f.workgroup_size = [](const Config& c) { return c.get("sgk") * 32; };
  f.shared_bytes = [](const Config& c, DType) {
    return uint64_t(c.get("sgk")) * (16 * 24 * 2 + uint64_t(c.get("frags")) * 1024 + 4);
  };
  // Workgroup x: block of rows x / SPLITS, k range x % SPLITS (the workgroups resident at once share their rows).
  f.dispatch_rule = [](const Config& c, DType) { return column_rule(16 * c.get("frags"), c.get("splits"), false); };
  f.few_rows = true;
  f.matrix_units = true;
}

void describe_row_streaming(KernelFamily& f, uint64_t max_rows, uint64_t max_accumulators,
                            std::vector<Constraint> extra) {
  f.constraints = device_limit_constraints();
  f.constraints.push_back({"registers",
                           [=](const KernelFamily&, const Config& c, const GemmProblem& p,
                               const vk::DeviceInfo&) -> std::optional<std::string> {
                             const uint64_t accumulators = uint64_t(c.get("rows")) * std::min(p.shape.m, max_rows);
                             if (accumulators > max_accumulators)
                               return std::to_string(c.get("rows")) + " rows x M = " + std::to_string(p.shape.m) +
                                      " accumulators > " + std::to_string(max_accumulators) + " per invocation";
                             return std::nullopt;
                           }});
  for (Constraint& c : extra) f.constraints.push_back(std::move(c));
  const bool splits =
      std::any_of(f.params.begin(), f.params.end(), [](const ParamSpec& p) { return p.name == "splits"; });
  if (splits) {
    f.constraints.push_back(split_range_constraint());
    f.constraints.push_back(split_scratch_constraint());
    // The last workgroup of a block is found with a device-scope atomic.
    f.constraints.push_back(split_device_scope_constraint());
  }
  f.workgroup_size_constant_id = 0;
  f.workgroup_size = [](const Config& c) { return c.get("wg"); };
  // Every subgroup's ROWS x M sums (subgroups of 8 or more; at most the accumulators' bound) and the arrival flag.
  f.shared_bytes = [=](const Config& c, DType) {
    return uint64_t(c.get("wg")) / 8 * std::min<uint64_t>(uint64_t(c.get("rows")) * max_rows, max_accumulators) *
               sizeof(float) +
           kSplitFlagBytes;
  };
  // Workgroup x: block x / SPLITS of rows, k range x % SPLITS; split-k is finished by each block's last workgroup.
  f.dispatch_rule = [](const Config& c, DType) { return column_rule(c.get("rows"), c.get_or("splits", 1), true); };
  f.one_pass_split = true;
  f.few_rows = true;
}

std::vector<Constraint> block_part_constraints() {
  constexpr uint64_t kMaxAheadCodes = 128;
  std::vector<Constraint> out;
  out.push_back({"ahead",
                 [](const KernelFamily&, const Config& c, const GemmProblem&,
                    const vk::DeviceInfo&) -> std::optional<std::string> {
                   if (c.get("ahead") > 1 && c.get("lanes") == 1)
                     return std::string("a whole block an invocation (lanes 1) loads one block at a time");
                   const uint64_t codes = uint64_t(c.get("ahead")) * c.get("rows") * (32 / c.get("lanes"));
                   if (codes > kMaxAheadCodes)
                     return "ahead x rows x 32 / lanes = " + std::to_string(codes) + " codes' words > " +
                            std::to_string(kMaxAheadCodes) + " held in registers";
                   return std::nullopt;
                 }});
  out.push_back({"groups",
                 [](const KernelFamily&, const Config& c, const GemmProblem&,
                    const vk::DeviceInfo& d) -> std::optional<std::string> {
                   const uint32_t per_group = c.get("wg") / c.get("groups");
                   const uint32_t subgroup = std::max(d.subgroup_size, d.matrix.max_subgroup_size);
                   if (c.get("groups") > 1 && per_group < subgroup)
                     return "wg / groups = " + std::to_string(per_group) + " invocations < subgroups of " +
                            std::to_string(subgroup);
                   return std::nullopt;
                 }});
  return out;
}

std::optional<std::string> subgroup_reduction_unsupported(const vk::DeviceInfo& d, const std::string& who) {
  if (!d.subgroup_shuffle) return "the device lists no subgroup shuffles in compute shaders (" + who + "'s reduction)";
  const uint32_t smallest =
      d.matrix.min_subgroup_size ? std::min(d.matrix.min_subgroup_size, d.subgroup_size) : d.subgroup_size;
  if (smallest < 8) return "subgroups of " + std::to_string(smallest) + " invocations: " + who + " needs at least 8";
  return std::nullopt;
}

std::vector<Constraint> device_limit_constraints() {
  std::vector<Constraint> out;
  out.push_back({"invocations",
                 [](const KernelFamily& family, const Config& c, const GemmProblem&,
                    const vk::DeviceInfo& d) -> std::optional<std::string> {
                   uint32_t wg = family.workgroup_size(c);
                   if (wg > d.max_invocations)
                     return std::to_string(wg) + " invocations > maxComputeWorkGroupInvocations " +
                            std::to_string(d.max_invocations);
                   if (wg > d.max_workgroup_size[0])
                     return std::to_string(wg) + " invocations > maxComputeWorkGroupSize.x " +
                            std::to_string(d.max_workgroup_size[0]);
                   return std::nullopt;
                 }});
  out.push_back({"shared_memory",
                 [](const KernelFamily& family, const Config& c, const GemmProblem& p,
                    const vk::DeviceInfo& d) -> std::optional<std::string> {
                   const uint64_t bytes = family.problem_shared_bytes ? family.problem_shared_bytes(c, p)
                                                                      : family.shared_bytes(c, p.dtype);
                   if (bytes > d.max_shared_memory)
                     return std::to_string(bytes) + " B shared memory > maxComputeSharedMemorySize " +
                            std::to_string(d.max_shared_memory) + " B";
                   return std::nullopt;
                 }});
  return out;
}

double split_fill_cost(uint64_t splits, double blocks, double fill_below, double target, double max_splits) {
  double wanted = 1.0;
  if (blocks < fill_below) {
    while (wanted < max_splits && blocks * wanted < target) wanted *= 2.0;
  }
  return 0.5 * std::abs(std::log2(double(splits) / wanted));
}

double tile_wave_time(uint64_t bm, uint64_t bn, uint64_t splits, const GemmProblem& p, uint32_t compute_units) {
  // A unit retires about 90 matrix-unit multiply-adds (staging included) in the time the reduce pass moves one of
  // its bytes (the H200: 640 TFLOP/s and 3-4 TB/s over 132 SMs), and the pass's dispatch costs about 2 us of work.
  constexpr double kMultiplyAddsPerByte = 90.0, kReduceDispatch = 4.0e6;
  const uint64_t tiles = rules::ceil_div(p.shape.m, bm) * rules::ceil_div(p.shape.n, bn) * p.shape.batch * splits;
  const double waves = double(rules::ceil_div(tiles, compute_units));
  double time = waves * double(bm) * double(bn) * double(rules::ceil_div(p.shape.k, splits)) *
                (1.0 + 64.0 / double(bm) + 64.0 / double(bn));
  if (splits > 1) {
    const double plane_bytes = 4.0 * double(p.shape.m) * double(p.shape.n) * double(p.shape.batch);
    time += plane_bytes * double(splits + 1) / compute_units * kMultiplyAddsPerByte + kReduceDispatch;
  }
  return time;
}

double tile_wave_cost(uint64_t bm, uint64_t bn, uint64_t splits, const GemmProblem& p, const vk::DeviceInfo& device) {
  if (device.compute_units == 0) return tile_fill_cost(bm, bn, splits, p);
  return 4.0 * std::log2(tile_wave_time(bm, bn, splits, p, device.compute_units));
}

double tile_fill_cost(uint64_t bm, uint64_t bn, uint64_t splits, const GemmProblem& p) {
  auto tiles = [&](uint64_t tile_m, uint64_t tile_n, uint64_t s) {
    return (p.shape.m + tile_m - 1) / tile_m * ((p.shape.n + tile_n - 1) / tile_n) * p.shape.batch * s;
  };
  constexpr uint64_t kEnoughTiles = 64;  // about half the workgroup slots of a large GPU: one wave is near
  // A large GPU's workgroup slots for these tiles (the H200: 132 SMs x 2): grids of 64 to 255 tiles leave some idle,
  // and at 512x4096x14336 (128 tiles) two k ranges ran 1.21x faster than one (notes, issue 21 step 6).
  constexpr uint64_t kSlots = 256;
  const double target_area = tiles(128, 128, 1) >= kEnoughTiles ? 128.0 * 128.0 : 64.0 * 64.0;
  const uint64_t unsplit = tiles(bm, bn, 1);
  double split_cost = double(splits - 1);
  if (unsplit < kSlots) {
    const uint64_t target = unsplit < kEnoughTiles ? kEnoughTiles : kSlots;
    split_cost =
        tiles(bm, bn, splits) >= target ? double(splits) / 8.0 : (splits == 1 && unsplit >= kEnoughTiles ? 0.5 : 4.0);
  }
  return 4.0 * std::abs(std::log2(double(bm) * double(bn) / target_area)) + split_cost;
}

}  // namespace gemmtune
