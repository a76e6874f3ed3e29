// Build workers (run/build_workers.hpp): configs handed to worker processes are built there and verify here as
// they do without workers; a worker that cannot start or dies leaves every build to this process, with the same
// outcomes.
#include <cstdlib>
#include <string>

#include "gpu/lavapipe_env.hpp"
#include "kernels/registry.hpp"
#include "run/build_workers.hpp"
#include "run/gemm_runner.hpp"
#include "tuner/space.hpp"

namespace gemmtune::test {

namespace {

class BuildWorkersTest : public GpuTest {};

/// The gemmtune binary (its hidden build-worker command), as ctest passes it.
std::string gemmtune_binary() {
  const char* bin = std::getenv("GEMMTUNE_BIN");
  return bin ? bin : "";
}

/// A few candidates of a problem, across families (split-k's two passes among them).
std::vector<Candidate> some_candidates(const GemmProblem& p) {
  SearchSpace space = build_search_space(kernel_families(), p, device().info());
  std::vector<Candidate> out;
  bool split = false;
  for (const Candidate& c : space.candidates) {
    const bool is_split = c.family->splits(c.config) > 1;
    if (out.size() < 3 || (is_split && !split)) out.push_back(c);
    split = split || is_split;
    if (out.size() >= 4 && split) break;
  }
  return out;
}

/// Hands the candidates to `workers`, then screens each: all must verify.
void screen_through(BuildWorkers& workers, const GemmProblem& p, const std::vector<Candidate>& candidates) {
  GemmRunner runner(device(), p, RunOptions{});
  runner.use_build_workers(&workers);
  EXPECT_EQ(runner.builds_ahead(), workers.count());  // a CPU device: one a worker
  std::vector<std::pair<const KernelFamily*, Config>> configs;
  for (const Candidate& c : candidates) configs.emplace_back(c.family, c.config);
  runner.precompile(configs, 1);
  for (const Candidate& c : candidates) {
    const Measurement m = runner.screen(*c.family, c.config, HUGE_VAL);
    EXPECT_EQ(m.disposition, Disposition::passed) << c.name << ": " << m.detail;
  }
}
}  // namespace

TEST_F(BuildWorkersTest, WorkersBuildTheHandedConfigsAndTheyVerifyHere) {
  ASSERT_FALSE(gemmtune_binary().empty()) << "GEMMTUNE_BIN is not set";
  const GemmProblem p{{33, 47, 520, 1}, DType::f32, 1.0f, 0.0f};
  const std::vector<Candidate> candidates = some_candidates(p);
  BuildWorkers workers(device(), 2, gemmtune_binary(), vk::uuid_string(device().info().device_uuid));
  screen_through(workers, p, candidates);
  const BuildWorkers::Stats& s = workers.stats();
  ASSERT_EQ(candidates.size(), 4u);
  EXPECT_EQ(s.submitted, candidates.size() + 1);  // split-k: two pipelines
  // Some taken back (a worker still starting when its config came up), and built there all the same.
  EXPECT_GT(s.built, 0u);
  EXPECT_LE(s.taken_back, s.submitted);
  EXPECT_EQ(s.failed, 0u);
}

TEST_F(BuildWorkersTest, WorkersThatCannotStartOrDieLeaveTheBuildsHere) {
  const GemmProblem p{{33, 47, 520, 1}, DType::f32, 1.0f, 0.0f};
  const std::vector<Candidate> candidates = some_candidates(p);
  const std::string uuid = vk::uuid_string(device().info().device_uuid);
  {
    BuildWorkers missing(device(), 1, "/nonexistent/gemmtune", uuid);
    screen_through(missing, p, candidates);
    EXPECT_EQ(missing.stats().built, 0u);
    EXPECT_EQ(missing.count(), 0u);
  }
  {
    // A worker that exits at once, as one that crashed: its requests come back unbuilt.
    BuildWorkers dying(device(), 1, "/bin/false", uuid);
    screen_through(dying, p, candidates);
    EXPECT_EQ(dying.stats().built, 0u);
  }
}

}  // namespace gemmtune::test
