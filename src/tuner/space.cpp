#include "tuner/space.hpp"

#include <fnmatch.h>

#include <algorithm>

namespace gemmtune {

std::optional<PrunedConfig> broken_constraint(const KernelFamily& family, const Config& config, const std::string& name,
                                              const GemmProblem& problem, const vk::DeviceInfo& device) {
  for (const Constraint& c : family.constraints) {
    if (c.layout_rule) continue;  // every config of all_configs() keeps them
    if (auto reason = c.check(family, config, problem, device)) return PrunedConfig{name, c.code, *reason};
  }
  return std::nullopt;
}

SearchSpace build_search_space(const std::vector<const KernelFamily*>& families, const GemmProblem& problem,
                               const vk::DeviceInfo& device) {
  SearchSpace space;
  for (const KernelFamily* family : families) {
    // A family built for no kernel of this input type (the quantized types are served by their own families).
    if (family->spirv && family->spirv(problem.dtype).empty() && is_quantized(problem.dtype)) {
      space.not_applicable.push_back(
          {family->name, "no kernel for " + std::string(dtype_name(problem.dtype)) + " inputs (A " +
                             std::string(dtype_name(a_dtype(problem.dtype))) + ", B in blocks)"});
      continue;
    }
    if (family->not_applicable) {
      if (auto reason = family->not_applicable(problem, device)) {
        space.not_applicable.push_back({family->name, *reason});
        continue;
      }
    }
    for (Config& config : family->swept_configs(problem)) {
      std::string name = family->config_name(config, problem.dtype);
      if (auto pruned = broken_constraint(*family, config, name, problem, device)) {
        space.pruned.push_back(std::move(*pruned));
        continue;
      }
      space.candidates.push_back({family, std::move(config), std::move(name)});
    }
  }
  return space;
}

bool name_matches(const std::string& glob, const std::string& name) {
  return fnmatch(glob.c_str(), name.c_str(), 0) == 0;
}

size_t keep_matching(SearchSpace& space, const std::string& glob) {
  if (glob.empty()) return 0;
  const size_t before = space.candidates.size();
  std::erase_if(space.candidates, [&](const Candidate& c) { return !name_matches(glob, c.name); });
  return before - space.candidates.size();
}

void order_for_screening(std::vector<Candidate>& candidates, const GemmProblem& problem, const vk::DeviceInfo& device) {
  auto key = [&](const Candidate& c) {
    if (c.family->screening_rank)
      return std::make_tuple(false, 0LL, 0LL, c.family->screening_rank(c.config, problem, device));
    uint32_t wg = c.family->workgroup_size(c.config);
    bool good_wg = wg >= 64 && wg <= 256;
    uint64_t per_invocation = 1, tile = 1;
    for (const auto& [name, value] : c.config.values) {
      if (name == "tm" || name == "tn") per_invocation *= value;
      if (name == "bm" || name == "bn") tile *= value;
    }
    return std::make_tuple(!good_wg, -(long long)(per_invocation), -(long long)(tile), 0.0);
  };
  // Families in order of first appearance; each family's configs sorted by the key into a queue of its own.
  std::vector<const KernelFamily*> families;
  for (const Candidate& c : candidates) {
    if (std::find(families.begin(), families.end(), c.family) == families.end()) families.push_back(c.family);
  }
  std::vector<std::vector<Candidate>> queues(families.size());
  for (const KernelFamily* f : families) {
    std::vector<Candidate>& q = queues[size_t(std::find(families.begin(), families.end(), f) - families.begin())];
    for (const Candidate& c : candidates) {
      if (c.family == f) q.push_back(c);
    }
    std::stable_sort(q.begin(), q.end(), [&](const Candidate& a, const Candidate& b) { return key(a) < key(b); });
  }
  // Round-robin over families, each taking its screening_weight of configs per round; the heavier families
  // (matrix units, known to be much faster where they apply) open each round, so a budget that covers one
  // batch of builds still measures them. Decoding-sized problems (M <= 16) are streams of B: the few-rows
  // families open each round with 4 slots (or their decoding_weight; the heavier first), and tiles taller than 4 x M
  // (mostly padding there, and 10-100x slower on the H200) wait until every other config has been screened.
  const bool decoding = problem.shape.m <= kDecodingRows;
  auto weight = [&](const KernelFamily* f) {
    if (decoding && f->few_rows) return f->decoding_weight ? f->decoding_weight(problem) : 4u;
    return f->screening_weight;
  };
  auto demoted = [&](const Candidate& c) {
    if (!decoding || c.family->few_rows) return false;
    for (const auto& [name, value] : c.config.values) {
      if (name == "bm" && value > 4 * problem.shape.m) return true;
    }
    return false;
  };
  std::vector<size_t> by_weight(queues.size());
  for (size_t f = 0; f < by_weight.size(); ++f) by_weight[f] = f;
  std::stable_sort(by_weight.begin(), by_weight.end(), [&](size_t a, size_t b) {
    const bool fa = decoding && families[a]->few_rows, fb = decoding && families[b]->few_rows;
    return fa != fb ? fa : weight(families[a]) > weight(families[b]);
  });
  for (std::vector<Candidate>& q : queues)
    std::stable_partition(q.begin(), q.end(), [&](const Candidate& c) { return !demoted(c); });
  candidates.clear();
  std::vector<size_t> next(queues.size(), 0);
  for (const bool late : {false, true}) {
    for (bool any = true; any;) {
      any = false;
      for (size_t f : by_weight) {
        for (uint32_t w = 0;
             w < weight(families[f]) && next[f] < queues[f].size() && demoted(queues[f][next[f]]) == late; ++w) {
          candidates.push_back(std::move(queues[f][next[f]++]));
          any = true;
        }
      }
    }
  }
}

}  // namespace gemmtune
