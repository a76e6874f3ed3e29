// GemmRunner's checks: a run on a fresh C image against the reference (on the device where screening allows),
// the epilogue element by element, the summation order in deterministic mode.
#include "run/gemm_runner.hpp"

#include <cstdio>
#include <cstring>

#include "kernels/spirv.hpp"
#include "run/gemm_runner_phases.hpp"
#include "verify/epilogue_check.hpp"
#include "verify/metric.hpp"
#include "verify/order_model.hpp"

namespace gemmtune {

namespace {
/// "(z, i, j)" of a dense batch x M x N index.
std::string element_name(const Shape& s, uint64_t index) {
  return "(" + std::to_string(index / (s.m * s.n)) + ", " + std::to_string(index / s.n % s.m) + ", " +
         std::to_string(index % s.n) + ")";
}

/// A float with its bits: "1.2345678 (0x3f9e0652)"; the bits are what an order check compares.
std::string float_bits_text(float x) {
  uint32_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  char text[48];
  std::snprintf(text, sizeof text, "%.9g (0x%08x)", double(x), bits);
  return text;
}
}  // namespace

Measurement GemmRunner::verify(const KernelFamily& family, const Config& config) {
  const IdleMark idle_mark{device_idle_since_};
  Measurement m;
  checked_passes(family, config, m, false);
  return m;
}

Measurement GemmRunner::verify_as_screened(const KernelFamily& family, const Config& config) {
  const IdleMark idle_mark{device_idle_since_};
  Measurement m;
  checked_passes(family, config, m, true);
  return m;
}

const GemmRunner::Passes* GemmRunner::checked_passes(const KernelFamily& family, const Config& config, Measurement& m,
                                                     bool screening) {
  Passes* passes = nullptr;
  const bool cached = passes_.count(family.config_name(config, problem_.dtype)) > 0;
  try {
    passes = &passes_for(family, config, true);
  } catch (const vk::VulkanError& e) {
    if (e.result() == VK_ERROR_DEVICE_LOST) throw;
    m.disposition = Disposition::compile_failed;
    m.detail = e.what();
    return nullptr;
  }
  if (!cached) m.compile_ms = passes->compile_ms;
  for (const vk::PipelineStatistic& s : passes->main->statistics()) m.pipeline_statistics.emplace_back(s.name, s.value);
  if (passes->reduce) {
    for (const vk::PipelineStatistic& s : passes->reduce->statistics())
      m.pipeline_statistics.emplace_back("reduce: " + s.name, s.value);
  }
  if (passes->prepass) {
    for (const vk::PipelineStatistic& s : passes->prepass->statistics())
      m.pipeline_statistics.emplace_back("prepass: " + s.name, s.value);
  }
  bind_passes(family, config, *passes);
  const auto start = std::chrono::steady_clock::now();
  const bool ok = (screening && passed_on_device(family, *passes, m)) || verified(family, config, *passes, m);
  m.verify_ms += ms_since(start);
  return ok ? passes : nullptr;
}

bool GemmRunner::has_epilogue() const {
  return problem_.epilogue.bias || problem_.epilogue.activation != Activation::none;
}

bool GemmRunner::has_order_check() const {
  return problem_.mode == Mode::deterministic && !is_integer(problem_.dtype) && problem_.alpha != 0.0f;
}

void GemmRunner::prepare_device_check() {
  // The device check covers the product; the epilogue and order checks compare elements on the host.
  if (!options_.device_check || has_elementwise_checks() || device_check_refused_ || device_check_) return;
  if (!DeviceCheck::fits(device_, operands_.c0.size())) {
    device_check_refused_ = true;
    return;
  }
  try {
    const auto start = std::chrono::steady_clock::now();
    // Its expected image is host work (0.3-0.5 s at 2048x14336 on the H200), after which the first screen warmed
    // up for its 1 s cap: the clocks stay up until its uploads need the queue.
    keep_clocks_up();
    device_check_ = std::make_unique<DeviceCheck>(device_, submitter_, problem_, operands_, reference_, c_,
                                                  [this] { release_clocks(); });
    preparation_.device_check_s = preparation_part_s("device check", start);
  } catch (const vk::VulkanError& e) {
    release_clocks();
    if (e.result() == VK_ERROR_DEVICE_LOST) throw;
    // Out of memory for the expected image, say: the host check serves this problem instead.
    spdlog::warn("{}: the device check is unavailable ({}); checking on the host", problem_.shape.to_string(),
                 e.what());
    device_check_refused_ = true;
  }
}

bool GemmRunner::passed_on_device(const KernelFamily& family, const Passes& passes, Measurement& m) {
  prepare_device_check();
  if (!device_check_) return false;
  next_copy_ = copies_ - 1;  // as verified(): cold runs check the last copy
  submitter_.run_timed([&](VkCommandBuffer cmd) { record_run(cmd, passes, 1); },
                       [&](VkCommandBuffer cmd) { device_check_->record_reset(cmd); },
                       [&](VkCommandBuffer cmd) { device_check_->record_check(cmd); });
  const DeviceVerdict v = device_check_->verdict(family.error_bound(problem_.dtype));
  if (!v.passed()) {
    spdlog::debug("device check refused (error {}, {} non-finite, {} touched): checking on the host", v.error.error,
                  v.error.non_finite, v.touched);
    return false;
  }
  m.error = v.error;
  m.device_checked = true;
  return true;
}

bool GemmRunner::verified(const KernelFamily& family, const Config& config, const Passes& passes, Measurement& m) {
  // Verification run on a fresh C image. Cold runs verify the last input copy: a wrong copy
  // pitch or upload would show there first.
  next_copy_ = copies_ - 1;
  std::memcpy(staging_.mapped(), operands_.c0.data(), c_.size());
  submitter_.run_timed([&](VkCommandBuffer cmd) { record_run(cmd, passes, 1); },
                       [&](VkCommandBuffer cmd) {
                         VkBufferCopy region{0, 0, c_.size()};
                         vkCmdCopyBuffer(cmd, staging_.handle(), c_.handle(), 1, &region);
                         vk::record_full_barrier(cmd);
                       },
                       [&](VkCommandBuffer cmd) {
                         vk::record_full_barrier(cmd);
                         VkBufferCopy region{0, 0, c_.size()};
                         vkCmdCopyBuffer(cmd, c_.handle(), staging_.handle(), 1, &region);
                         vk::record_full_barrier(cmd);
                       });
  // The host's check of a large C leaves the device idle for 0.1 s or more, which the next warm-up would repay
  // 3x: the clock keeper holds the clocks meanwhile.
  keep_clocks_up();
  std::vector<float> image(c_.size() / 4);
  std::memcpy(image.data(), staging_.mapped(), c_.size());
  GatheredResult gathered = gather_result(problem_, operands_, image);
  last_result_ = std::move(gathered.values);
  m.error = is_integer(problem_.dtype)
                ? compare_exact_int32(last_result_, reference_)
                : compare_with_reference(last_result_, reference_, family.error_bound(problem_.dtype));
  release_clocks();
  if (gathered.touched > 0) {
    m.disposition = Disposition::incorrect;
    m.detail = std::to_string(gathered.touched) +
               " elements outside the written region of C changed (first at buffer index " +
               std::to_string(gathered.first_touched) + ")";
    return false;
  }
  if (!m.error.passed) {
    m.disposition = Disposition::incorrect;
    m.detail = m.error.non_finite
                   ? std::to_string(m.error.non_finite) + " non-finite results"
                   : "error " + std::to_string(m.error.error) + " > bound " + std::to_string(m.error.bound);
    return false;
  }
  // The epilogue and the summation order are checked against the device's own result before bias and
  // activation: with either, the unfused product pass gives it, and leaves C holding it (what is timed next
  // overwrites it, as every repeat does).
  if (!has_elementwise_checks()) return true;
  const bool epilogue = has_epilogue(), ordered = has_order_check();
  const std::vector<float> pre = epilogue ? run_without_fused_epilogue(family, config, false) : std::vector<float>{};
  const std::span<const float> product = epilogue ? std::span<const float>(pre) : std::span<const float>(last_result_);
  std::optional<std::string> mismatch = epilogue ? epilogue_mismatch(product, m.error) : std::nullopt;
  if (!mismatch && ordered) mismatch = order_mismatch(family, config, product);
  if (!mismatch) return true;
  m.disposition = Disposition::incorrect;
  m.detail = *mismatch;
  return false;
}

std::optional<std::string> GemmRunner::epilogue_mismatch(std::span<const float> pre, ErrorStats& error) const {
  const EpilogueCheck e = check_epilogue(problem_, operands_, pre, last_result_);
  error.epilogue = e.error;
  if (e.passed) return std::nullopt;
  return "epilogue at " + element_name(problem_.shape, e.worst_index) + ": " + problem_.epilogue.name() + "(" +
         std::to_string(e.pre) + ") = " + std::to_string(e.expected) + ", got " + std::to_string(e.got) + ": error " +
         std::to_string(e.error) + " > bound " + std::to_string(kEpilogueBound) + " (elementwise, of max(1, |x|))";
}

std::optional<std::string> GemmRunner::order_mismatch(const KernelFamily& family, const Config& config,
                                                      std::span<const float> pre) const {
  if (!family.summation_order) return "deterministic mode: " + family.name + " states no summation order to check";
  const OrderCheck check =
      check_summation_order(problem_, operands_, family.summation_order(config, problem_, device_.info()), pre);
  if (check.passed) return std::nullopt;
  return "deterministic mode: " + std::to_string(check.differing) + " of " + std::to_string(check.sampled) +
         " sampled elements differ from the documented summation order (first at " +
         element_name(problem_.shape, check.first_index) + ": got " + float_bits_text(check.got) +
         ", the order gives " + float_bits_text(check.expected) + ")";
}

std::vector<float> GemmRunner::run_unfused(const KernelFamily& family, const Config& config) {
  return run_without_fused_epilogue(family, config, true);
}

std::vector<float> GemmRunner::run_without_fused_epilogue(const KernelFamily& family, const Config& config,
                                                          bool epilogue_passes) {
  Passes& product = passes_for(family, config, false);
  bind_passes(family, config, product);
  auto epilogue_pass = [&](uint32_t op) {
    std::vector<vk::SpecConstant> constants;
    for (const rules::SpecConstant& c : rules::operation_constants(operation_, true, 1))
      constants.push_back({c.id, c.value});
    constants.push_back({30, op});
    return std::make_unique<vk::ComputePipeline>(device_, epilogue_spirv(), constants, bindings(),
                                                 uint32_t(sizeof(GemmPush)));
  };
  std::unique_ptr<vk::ComputePipeline> bias_pass, activation_pass;
  if (epilogue_passes && problem_.epilogue.bias) bias_pass = epilogue_pass(1);
  if (epilogue_passes && problem_.epilogue.activation != Activation::none) activation_pass = epilogue_pass(2);

  const std::array<uint64_t, 3> element_grid = rules::reduce_grid(operation_);
  std::memcpy(staging_.mapped(), operands_.c0.data(), c_.size());
  submitter_.run([&](VkCommandBuffer cmd) {
    VkBufferCopy region{0, 0, c_.size()};
    vkCmdCopyBuffer(cmd, staging_.handle(), c_.handle(), 1, &region);
    vk::record_full_barrier(cmd);
    record_run(cmd, product, 1);
    for (auto* pass : {bias_pass.get(), activation_pass.get()}) {
      if (!pass) continue;
      vk::record_full_barrier(cmd);
      record_grid(cmd, *pass, element_grid, push_);
    }
    vk::record_full_barrier(cmd);
    vkCmdCopyBuffer(cmd, c_.handle(), staging_.handle(), 1, &region);
    vk::record_full_barrier(cmd);
  });
  std::vector<float> image(c_.size() / 4);
  std::memcpy(image.data(), staging_.mapped(), c_.size());
  return gather_result(problem_, operands_, image).values;
}

}  // namespace gemmtune
