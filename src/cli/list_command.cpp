// `gemmtune list`: the candidates of every problem in screening order, and with --why what was pruned and why;
// nothing is built or run.
#include <nlohmann/json.hpp>

#include <cstdio>

#include "cli/options.hpp"
#include "cli/requested.hpp"
#include "cli/tune_output.hpp"
#include "tuner/tuner.hpp"
#include "vk/instance.hpp"

namespace gemmtune {

int run_list(const TuneCommandOptions& o, bool why, bool json) {
  for (const ShapeRequest& shape : o.shapes) {
    for (const GemmProblem& p : problems_of(o, shape)) resolve(p);
  }
  const std::vector<KernelFamily> families = families_of(o);
  check_kernels_glob(o, families);
  vk::Instance instance(vk::validation_requested_by_env());
  const vk::DeviceInfo info = instance.select(o.device).info;
  nlohmann::json problems = nlohmann::json::array();  // --json: one object per problem, printed at the end
  for (const ShapeRequest& shape : o.shapes) {
    for (const GemmProblem& problem : problems_of(o, shape)) {
      SearchSpace space = build_search_space(pointers(families), problem, info);
      const size_t filtered = keep_matching(space, o.kernels);
      order_for_screening(space.candidates, problem, info);
      if (json) {
        nlohmann::json entry = {{"m", problem.shape.m},
                                {"n", problem.shape.n},
                                {"k", problem.shape.k},
                                {"batch", problem.shape.batch},
                                {"dtype", std::string(dtype_name(problem.dtype))},
                                {"layout", problem.layout.name()},
                                {"candidates", nlohmann::json::array()},
                                {"left_out_by_kernels", filtered},
                                {"pruned", nlohmann::json::array()},
                                {"not_applicable", nlohmann::json::array()}};
        for (const Candidate& c : space.candidates) entry["candidates"].push_back(c.name);
        for (const PrunedConfig& pc : space.pruned)
          entry["pruned"].push_back({{"name", pc.name}, {"code", pc.code}, {"reason", pc.reason}});
        for (const NotApplicable& n : space.not_applicable)
          entry["not_applicable"].push_back({{"variant", n.variant}, {"reason", n.reason}});
        problems.push_back(std::move(entry));
        continue;
      }
      std::printf("%s on %s: %zu candidates, %zu pruned%s\n", describe(problem).c_str(), info.name.c_str(),
                  space.candidates.size(), space.pruned.size(),
                  filtered ? (", " + std::to_string(filtered) + " left out by --kernels").c_str() : "");
      for (const Candidate& c : space.candidates) std::printf("  %s\n", c.name.c_str());
      if (!why) continue;
      for (const PrunedConfig& pc : space.pruned)
        std::printf("  pruned %s: %s: %s\n", pc.name.c_str(), pc.code.c_str(), pc.reason.c_str());
      for (const NotApplicable& n : space.not_applicable)
        std::printf("  not applicable %s: %s\n", n.variant.c_str(), n.reason.c_str());
    }
  }
  if (json) std::printf("%s\n", nlohmann::json{{"device", info.name}, {"problems", problems}}.dump(2).c_str());
  return 0;
}

}  // namespace gemmtune
