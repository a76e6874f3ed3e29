// Build workers (run/build_workers.hpp): configs handed to worker processes are built there and verify here as
// they do without workers; a worker that cannot start or dies leaves every build to this process, with the same
// outcomes.
#include <chrono>
#include <cstdlib>
#include <thread>
#include <string>

#include "gpu/lavapipe_env.hpp"
#include "kernels/registry.hpp"
#include "run/build_workers.hpp"
#include "run/clock_keeper.hpp"
#include "kernels/spirv.hpp"
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
  EXPECT_EQ(runner.builds_ahead(), 2 * workers.count());  // one being built and one waiting, a worker
  std::vector<std::pair<const KernelFamily*, Config>> configs;
  for (const Candidate& c : candidates) configs.emplace_back(c.family, c.config);
  runner.precompile(configs, 1);
  // The workers run at the lowest priority on a CPU device: a first build is waited for (they come up while this
  // process idles), so some of the configs screened below are built there.
  for (int i = 0; i < 600 && workers.count() > 0 && workers.stats().built == 0; ++i) workers.wait_for_reply(50);
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

TEST_F(BuildWorkersTest, FirstReadyPassesOverAConfigNotHandedOverForOneAWorkerIsBuilding) {
  ASSERT_FALSE(gemmtune_binary().empty()) << "GEMMTUNE_BIN is not set";
  const GemmProblem p{{33, 47, 520, 1}, DType::f32, 1.0f, 0.0f};
  const std::vector<Candidate> c = some_candidates(p);
  BuildWorkers workers(device(), 1, gemmtune_binary(), vk::uuid_string(device().info().device_uuid));
  GemmRunner runner(device(), p, RunOptions{});
  runner.use_build_workers(&workers);
  const std::vector<std::pair<const KernelFamily*, const Config*>> next = {{c[0].family, &c[0].config},
                                                                           {c[1].family, &c[1].config}};
  EXPECT_EQ(runner.first_ready(next), 0u);  // nothing handed over: the first is built here
  runner.precompile({{c[1].family, c[1].config}}, 1);
  // Until the worker's device is up nothing is under way and the first is taken; then first_ready waits for the
  // worker's reply and passes over the first.
  size_t chosen = 0;
  const auto start = std::chrono::steady_clock::now();
  while (chosen == 0 && std::chrono::steady_clock::now() - start < std::chrono::seconds(60)) {
    chosen = runner.first_ready(next);
    if (chosen == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(chosen, 1u);
  EXPECT_EQ(workers.stats().built, 1u);
  EXPECT_EQ(runner.screen(*c[1].family, c[1].config, HUGE_VAL).disposition, Disposition::passed);
  EXPECT_EQ(runner.screen(*c[0].family, c[0].config, HUGE_VAL).disposition, Disposition::passed);
}

TEST_F(BuildWorkersTest, BuildsHandedOverBeforeTheRunnerExistsAreAdoptedAndNotHandedOverAgain) {
  ASSERT_FALSE(gemmtune_binary().empty()) << "GEMMTUNE_BIN is not set";
  // bf16: pipelines no other test of this file builds (one built before in the process is never handed over).
  const GemmProblem p{{33, 47, 520, 1}, DType::bf16, 1.0f, 0.0f};
  const std::vector<Candidate> c = some_candidates(p);
  ASSERT_EQ(c.size(), 4u);
  BuildWorkers workers(device(), 1, gemmtune_binary(), vk::uuid_string(device().info().device_uuid));
  // All but the first, as a tuner hands them over before the operands and the reference are made.
  std::vector<std::pair<const KernelFamily*, Config>> ahead;
  size_t passes = 0;
  for (size_t i = 1; i < c.size(); ++i) {
    ahead.emplace_back(c[i].family, c[i].config);
    passes += c[i].family->splits(c[i].config) > 1 ? 2 : 1;
  }
  GemmRunner::WorkerTickets tickets = GemmRunner::submit_ahead(workers, device(), p, RunOptions{}, ahead);
  EXPECT_EQ(tickets.size(), ahead.size());
  EXPECT_EQ(workers.stats().submitted, passes);
  // Built there (on a CPU device with a one-workgroup dispatch in buffers of the runner's sizes), none failing.
  for (int i = 0; i < 2400 && workers.stats().built + workers.stats().failed < passes; ++i) workers.wait_for_reply(50);
  EXPECT_EQ(workers.stats().built, passes);
  EXPECT_EQ(workers.stats().failed, 0u);
  GemmRunner runner(device(), p, RunOptions{});
  runner.use_build_workers(&workers);
  runner.adopt_builds(std::move(tickets));
  // The adopted builds are ready: first_ready passes over the first config, which nobody built.
  const std::vector<std::pair<const KernelFamily*, const Config*>> next = {{c[0].family, &c[0].config},
                                                                           {c[1].family, &c[1].config}};
  EXPECT_EQ(runner.first_ready(next), 1u);
  // Handing every config over now sends only the first's pipelines.
  std::vector<std::pair<const KernelFamily*, Config>> all;
  for (const Candidate& x : c) all.emplace_back(x.family, x.config);
  runner.precompile(all, 1);
  EXPECT_EQ(workers.stats().submitted, passes + (c[0].family->splits(c[0].config) > 1 ? 2 : 1));
  for (const Candidate& x : c) {
    const Measurement m = runner.screen(*x.family, x.config, HUGE_VAL);
    EXPECT_EQ(m.disposition, Disposition::passed) << x.name << ": " << m.detail;
  }
}

TEST_F(BuildWorkersTest, AConfigBuiltBeforeInTheProcessIsNeitherHandedOverNorWaitedFor) {
  ASSERT_FALSE(gemmtune_binary().empty()) << "GEMMTUNE_BIN is not set";
  // f16: pipelines no other test of this file builds.
  const GemmProblem p{{33, 47, 520, 1}, DType::f16, 1.0f, 0.0f};
  const std::vector<Candidate> c = some_candidates(p);
  ASSERT_GE(c.size(), 3u);
  {
    GemmRunner first(device(), p, RunOptions{});  // another problem's runner built c[1] before
    EXPECT_EQ(first.screen(*c[1].family, c[1].config, HUGE_VAL).disposition, Disposition::passed);
  }
  BuildWorkers workers(device(), 1, gemmtune_binary(), vk::uuid_string(device().info().device_uuid));
  const GemmRunner::WorkerTickets ahead =
      GemmRunner::submit_ahead(workers, device(), p, RunOptions{}, {{c[1].family, c[1].config}});
  EXPECT_EQ(workers.stats().submitted, 0u);
  GemmRunner runner(device(), p, RunOptions{});
  runner.use_build_workers(&workers);
  // c[1] is ready at once (a cache hit), never handed over: first_ready takes it over c[2], which nobody has built
  // or is building.
  const std::vector<std::pair<const KernelFamily*, const Config*>> next = {{c[2].family, &c[2].config},
                                                                           {c[1].family, &c[1].config}};
  EXPECT_EQ(runner.first_ready(next), 1u);
  runner.precompile({{c[0].family, c[0].config}, {c[1].family, c[1].config}}, 1);
  const size_t c0_passes = c[0].family->splits(c[0].config) > 1 ? 2 : 1;
  EXPECT_EQ(workers.stats().submitted, c0_passes);  // c[0] only
  for (const Candidate& x : {c[1], c[0], c[2]})
    EXPECT_EQ(runner.screen(*x.family, x.config, HUGE_VAL).disposition, Disposition::passed) << x.name;
}

TEST_F(BuildWorkersTest, APrioritizedRequestGoesToTheWorkerBeforeThoseQueuedAheadOfIt) {
  ASSERT_FALSE(gemmtune_binary().empty()) << "GEMMTUNE_BIN is not set";
  BuildWorkers workers(device(), 1, gemmtune_binary(), vk::uuid_string(device().info().device_uuid));
  auto request = [](uint32_t iterations) {
    BuildRequest r;
    r.spirv = spirv_module("peak_fma_f32");
    r.constants = {{0, 64}, {1, iterations}};
    r.push_bytes = 8;
    r.binding_bytes = {4096};
    return r;
  };
  std::vector<BuildWorkers::Ticket> t;
  for (uint32_t i = 0; i < 5; ++i) t.push_back(workers.submit(request(100 + i)));
  // One worker, two requests in flight at most (sent while its device comes up): the last three wait in the queue,
  // the fifth now first.
  workers.prioritize({t[4]});
  const auto start = std::chrono::steady_clock::now();
  while (workers.progress(t[4]) != BuildWorkers::Progress::replied &&
         std::chrono::steady_clock::now() - start < std::chrono::seconds(60))
    workers.wait_for_reply(10);
  ASSERT_EQ(workers.progress(t[4]), BuildWorkers::Progress::replied);
  EXPECT_NE(workers.progress(t[3]), BuildWorkers::Progress::replied);
  for (BuildWorkers::Ticket x : t) workers.take(x);
}

TEST_F(BuildWorkersTest, TheClockKeeperKeepsTheQueueBusyUntilStoppedAndHandsItBack) {
  ClockKeeper keeper(device(), 5'000'000'000ull);
  EXPECT_FALSE(keeper.running());
  for (int round = 0; round < 2; ++round) {
    const uint64_t before = keeper.chunks();
    keeper.start();
    keeper.start();  // already started: nothing more
    EXPECT_TRUE(keeper.running());
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    keeper.stop();
    EXPECT_FALSE(keeper.running());
    EXPECT_GT(keeper.chunks(), before);
    const uint64_t after = keeper.chunks();
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    EXPECT_EQ(keeper.chunks(), after);  // stopped means stopped
  }
  // The queue is the caller's again: a GEMM screens and verifies.
  const GemmProblem p{{64, 64, 64, 1}, DType::f32, 1.0f, 0.0f};
  const std::vector<Candidate> c = some_candidates(p);
  GemmRunner runner(device(), p, RunOptions{});
  EXPECT_EQ(runner.screen(*c[0].family, c[0].config, HUGE_VAL).disposition, Disposition::passed);
}

}  // namespace gemmtune::test
