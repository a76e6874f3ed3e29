// The search space of one problem: every config of every family, pruned against the device before anything is
// built, each pruned config keeping its reason.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kernels/kernel_def.hpp"

namespace gemmtune {

struct Candidate {
  const KernelFamily* family;
  Config config;
  std::string name;
};

struct PrunedConfig {
  std::string name;
  std::string code;    ///< the constraint's reason code
  std::string reason;  ///< the figures behind it
};

/// A family that cannot serve the problem at all, with the reason (reported, never silently dropped).
struct NotApplicable {
  std::string variant;
  std::string reason;
};

struct SearchSpace {
  std::vector<Candidate> candidates;
  std::vector<PrunedConfig> pruned;
  std::vector<NotApplicable> not_applicable;
};

SearchSpace build_search_space(const std::vector<const KernelFamily*>& families, const GemmProblem& problem,
                               const vk::DeviceInfo& device);

/// The first of the family's constraints that `config` breaks for the problem on the device, as a pruned config
/// named `name`; nullopt where it keeps them all. Also for configs the problem's space does not sweep (`bench`). Its
/// layout rules are not checked: a config of all_configs() keeps them.
std::optional<PrunedConfig> broken_constraint(const KernelFamily& family, const Config& config, const std::string& name,
                                              const GemmProblem& problem, const vk::DeviceInfo& device);

/// Keeps the candidates whose name matches a shell glob (`--kernels "tiled_f16_bm128*"`); empty keeps all.
/// Returns how many were left out.
size_t keep_matching(SearchSpace& space, const std::string& glob);
/// Whether a config name matches a --kernels shell glob.
bool name_matches(const std::string& glob, const std::string& name);

/// Screening order: the configs most likely to be fast first, so a budget that runs out has covered them.
/// Within a family: its screening_rank for the problem where it declares one; otherwise workgroups of 64 to
/// 256 invocations, then more work per invocation (TM * TN), then larger tiles; ties keep declaration order.
/// Families then take turns, each taking its screening_weight of configs per turn, so every applicable variant
/// is screened even when the budget covers a small part of the space. Decoding-sized problems (M <= 16): the
/// few-rows families (KernelFamily::few_rows) open every turn with 4 configs, and other families' configs with
/// BM > 4 x M come after every other config. Deterministic.
inline constexpr uint64_t kDecodingRows = 16;
/// `device`: families' ranks may use its compute units (the default, none listed, gives the device-free order).
void order_for_screening(std::vector<Candidate>& candidates, const GemmProblem& problem,
                         const vk::DeviceInfo& device = {});

}  // namespace gemmtune
