// The tiled kernel on a real Vulkan driver: every dtype at edge and odd shapes, verified against the Eigen
// reference on NaN-poisoned C; alpha/beta and batches; the validation layer is live and sees no error.
#include <cmath>
#include <cstring>

#include "core/error.hpp"
#include "gpu/lavapipe_env.hpp"
#include "kernels/registry.hpp"
#include "run/gemm_runner.hpp"
#include "tuner/space.hpp"
#include "verify/metric.hpp"

namespace gemmtune::test {

namespace {
/// Every `stride`-th candidate of the device's pruned space, so each shape meets many tile geometries. With
/// `min_outputs` > 0, only tile configs whose invocations compute at least that many outputs each (TM x TN):
/// lavapipe runs a 1024x768x3072 product in 10-30 s with those and in minutes with 1 x 1 tiles.
std::vector<Candidate> sampled_candidates(const GemmProblem& p, size_t stride, uint32_t min_outputs = 0) {
  SearchSpace space = build_search_space(kernel_families(), p, device().info());
  std::vector<Candidate> pool;
  for (const Candidate& c : space.candidates) {
    // warptile's code paths of a short k loop (tiles, cvec) and its k slices are
    // EveryWarptileCodePathVerifiesInEveryLayout's: sampled here they would multiply the pipelines this test builds.
    if (c.family->name == "warptile" &&
        (c.config.get_or("tiles", 1) > 1 || c.config.get_or("cvec", 0) == 1 || c.config.get_or("kslices", 1) > 1))
      continue;
    const bool tile = c.family->name == "tiled" || c.family->name == "splitk";
    if (min_outputs == 0 || (tile && c.config.get("tm") * c.config.get("tn") >= min_outputs)) pool.push_back(c);
  }
  std::vector<Candidate> out;
  for (size_t i = 0; i < pool.size(); i += stride) out.push_back(pool[i]);
  return out;
}

void expect_all_verified(GemmRunner& runner, const std::vector<Candidate>& candidates) {
  for (const Candidate& c : candidates) {
    Measurement m = runner.verify(*c.family, c.config);
    EXPECT_EQ(m.disposition, Disposition::passed) << c.name << ": " << m.detail;
    EXPECT_LE(m.error.error, m.error.bound) << c.name;
    EXPECT_EQ(m.error.non_finite, 0u) << c.name;
    EXPECT_TRUE(m.samples_us.empty()) << c.name << ": verify() times nothing";
    runner.drop_pipeline(c.name);
  }
}

struct ShapeCase {
  Shape shape;
  size_t stride;             ///< sample every stride-th config (large shapes run fewer)
  uint32_t min_outputs = 0;  ///< only tile configs with at least this many outputs an invocation (large shapes)
};
void PrintTo(const ShapeCase& c, std::ostream* os) {
  *os << c.shape.to_string() << " every " << c.stride << "th config";
}
}  // namespace

class TiledKernel : public GpuTest, public ::testing::WithParamInterface<std::tuple<DType, ShapeCase>> {};

TEST_P(TiledKernel, VerifiesAgainstTheReferenceOnNaNPoisonedC) {
  auto [dtype, sc] = GetParam();
  GemmProblem p{sc.shape, dtype, 1.0f, 0.0f};
  GemmRunner runner(device(), p, RunOptions{});
  auto candidates = sampled_candidates(p, sc.stride, sc.min_outputs);
  ASSERT_FALSE(candidates.empty());
  expect_all_verified(runner, candidates);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, TiledKernel,
    ::testing::Combine(::testing::Values(DType::f32, DType::f16, DType::bf16),
                       ::testing::Values(ShapeCase{{1, 1, 1, 1}, 17}, ShapeCase{{17, 33, 65, 1}, 11},
                                         ShapeCase{{257, 129, 1031, 1}, 41}, ShapeCase{{1024, 768, 3072, 1}, 250, 32})),
    [](const auto& param_info) {
      const Shape& s = std::get<1>(param_info.param).shape;
      return std::string(dtype_name(std::get<0>(param_info.param))) + "_" + std::to_string(s.m) + "x" +
             std::to_string(s.n) + "x" + std::to_string(s.k);
    });

class GemmOperation : public GpuTest {};

TEST_F(GemmOperation, AlphaAndBetaUseTheInitialC) {
  for (DType d : {DType::f32, DType::f16, DType::bf16}) {
    GemmProblem p{{45, 70, 33, 1}, d, 0.75f, -1.5f};
    GemmRunner runner(device(), p, RunOptions{7, 60'000'000'000ull});
    expect_all_verified(runner, sampled_candidates(p, 29));
  }
}

TEST_F(GemmOperation, BatchedProductsAreIndependent) {
  GemmProblem p{{19, 23, 37, 3}, DType::f16, 1.0f, 0.0f};
  GemmRunner runner(device(), p, RunOptions{});
  expect_all_verified(runner, sampled_candidates(p, 37));
}

// The device idles while a runner computes its reference on the host: the first screening warm-up must count that
// time (the H200 screened the first config of each problem 3.5x slow when it did not).
TEST_F(GemmOperation, TheIdleBeforeTheFirstScreenIncludesTheReference) {
  GemmProblem p{{384, 384, 384, 1}, DType::f32, 1.0f, 0.0f};
  const auto start = std::chrono::steady_clock::now();
  GemmRunner runner(device(), p, RunOptions{});
  const double built_ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  // Most of the construction is the reference (384^3 in double); half of it is a bound no load can break and that
  // an idle counted from the end of construction (microseconds) misses.
  EXPECT_GE(runner.device_idle_ns(), 0.5 * built_ns);
  Candidate c = sampled_candidates(p, 1).front();
  ASSERT_EQ(runner.evaluate(*c.family, c.config, 0, 0).disposition, Disposition::passed);
  EXPECT_LT(runner.device_idle_ns(), 0.5 * built_ns) << "after an evaluation the idle counts from its end";
}

// A finalist on a CPU device (lavapipe) warms up as its screening does, not for a GPU's 200 ms: it has no clocks to
// bring back, and most of a small tune's time on it went to those warm-ups.
TEST_F(GemmOperation, AFinalistOnACpuDeviceWarmsUpAsItsScreeningDoes) {
  ASSERT_EQ(device().info().type, VK_PHYSICAL_DEVICE_TYPE_CPU) << "this test runs on lavapipe";
  GemmProblem p{{16, 16, 16, 1}, DType::f32, 1.0f, 0.0f};
  GemmRunner runner(device(), p, RunOptions{});
  Candidate c = sampled_candidates(p, 1).front();
  const Measurement full = runner.evaluate(*c.family, c.config, 1, 3);
  ASSERT_EQ(full.disposition, Disposition::passed);
  EXPECT_GT(full.warmup_ms, 0.0);
  EXPECT_LT(full.warmup_ms, 150.0) << "RunOptions::warmup_ns is 200 ms of device time";
}

TEST_F(GemmOperation, RepeatedRunsGiveBitIdenticalResults) {
  GemmProblem p{{67, 45, 300, 1}, DType::f32, 1.0f, 0.0f};
  GemmRunner runner(device(), p, RunOptions{});
  Candidate c = sampled_candidates(p, 1).front();
  // Screening (no samples asked) times its screening batches and checks on the device; a full evaluation its
  // samples, checked on the host.
  const Measurement screened = runner.evaluate(*c.family, c.config, 0, 0);
  ASSERT_EQ(screened.disposition, Disposition::passed);
  EXPECT_TRUE(screened.device_checked);
  ASSERT_EQ(screened.samples_us.size(), size_t(RunOptions{}.screen_batches));
  EXPECT_GT(screened.samples_us[0], 0.0);
  ASSERT_EQ(runner.verify(*c.family, c.config).disposition, Disposition::passed);
  std::vector<float> first = runner.last_result();
  const Measurement full = runner.evaluate(*c.family, c.config, 1, 3);
  ASSERT_EQ(full.disposition, Disposition::passed);
  EXPECT_EQ(full.samples_us.size(), 3u);
  EXPECT_EQ(0, std::memcmp(first.data(), runner.last_result().data(), first.size() * sizeof(float)));
}

TEST_F(GemmOperation, ColdRunsRotateThroughCopiesThatAllHoldTheInputs) {
  // 1 MiB of copies of a 50x70x90 f16 problem with leading-dimension gaps and offsets: many copies, each at a
  // pitch that must keep the layout. Cold runs verify the last copy; its result must equal the hot one.
  GemmProblem p{{50, 70, 90, 1}, DType::f16, 1.0f, 0.0f, Layout{false, true}};
  p.a.ld = 97;
  p.a.offset = 3;
  p.b.offset = 5;
  RunOptions hot_options;
  RunOptions cold_options;
  cold_options.cold_bytes = 1 << 20;
  const uint64_t copies = input_copies(p, cold_options);
  EXPECT_GT(copies, 10u);
  EXPECT_EQ(input_copies(p, hot_options), 1u);
  GemmRunner hot(device(), p, hot_options), cold(device(), p, cold_options);
  for (const Candidate& c : sampled_candidates(p, 97)) {
    ASSERT_EQ(hot.verify(*c.family, c.config).disposition, Disposition::passed) << c.name;
    const Measurement m = cold.evaluate(*c.family, c.config, 0, 1);
    ASSERT_EQ(m.disposition, Disposition::passed) << c.name << ": " << m.detail;
    EXPECT_EQ(
        0, std::memcmp(hot.last_result().data(), cold.last_result().data(), hot.last_result().size() * sizeof(float)))
        << c.name;
  }
  // Copies count against the device's limits like any operand.
  // A device's buffer limits cap the copies; past them the copies are refused like any operand.
  cold_options.cold_bytes = uint64_t(device().info().max_storage_buffer_range) * 4;
  const uint64_t capped = input_copies(p, cold_options, device().info().max_storage_buffer_range);
  EXPECT_LE(capped * 90 * 70 * 2, device().info().max_storage_buffer_range);
  EXPECT_GT(capped * 2 * 90 * 70 * 2, device().info().max_storage_buffer_range);
  try {
    check_problem_fits(p, device(), cold_options.guard, input_copies(p, cold_options));
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::unsupported);
  }
}

TEST_F(GemmOperation, EveryTiledCodePathVerifiesInEveryLayout) {
  // One config per distinct path of kernels/gemm_tiled.comp, not a sample: register tiles with runs of 4 rows and
  // columns (vec4 shared loads), with neither, with one of them, 8 x 8 (two runs) and 1 x 8; BK 8, 16 and 32 with a
  // k tail; on an odd shape (element staging, partial tiles) and one whose rows are 16-byte aligned (vector staging),
  // in every layout, f32 and bf16 alternately, and in deterministic mode on the odd shape where BK allows it.
  auto tile = [](uint32_t bm, uint32_t bn, uint32_t bk, uint32_t tm, uint32_t tn) {
    return Config{{{"bm", bm}, {"bn", bn}, {"bk", bk}, {"tm", tm}, {"tn", tn}}};
  };
  const Config configs[] = {tile(32, 32, 8, 4, 4),  tile(32, 64, 16, 2, 4), tile(64, 32, 32, 4, 2),
                            tile(32, 32, 16, 2, 2), tile(64, 64, 8, 8, 8),  tile(32, 64, 16, 1, 8)};
  const Shape shapes[] = {{17, 33, 65, 1}, {48, 40, 72, 1}};
  size_t which = 0;
  for (const Config& config : configs)
    for (const Shape& shape : shapes)
      for (Layout layout : {Layout{false, false}, Layout{false, true}, Layout{true, false}, Layout{true, true}})
        for (Mode mode : {Mode::fast, Mode::deterministic}) {
          if (mode == Mode::deterministic && (config.get("bk") % 16 != 0 || shape.m != 17)) continue;
          GemmProblem p{shape, ++which % 2 ? DType::f32 : DType::bf16, 1.0f, 0.0f, layout};
          p.mode = mode;
          GemmRunner runner(device(), p, RunOptions{});
          const Measurement m = runner.verify(family_named("tiled"), config);
          EXPECT_EQ(m.disposition, Disposition::passed)
              << family_named("tiled").config_name(config, p.dtype) << " " << shape.to_string() << " " << layout.name()
              << ": " << m.detail;
        }
}

TEST_F(GemmOperation, EveryWarptileCodePathVerifiesInEveryLayout) {
  // kernels/gemm_warptile.comp: each lane grid (4 x 8, 8 x 4, 2 x 16, 16 x 2 lanes), 4- and 8-wide runs, BK 8, 16
  // and 32, both kk loops (ahead 0 and 1), workgroups of 1 to 8 warp tiles, 1, 2 or 4 tiles a workgroup in turn; on
  // a small odd shape (checked staging everywhere), an aligned one whose interior tiles take the unchecked path and
  // whose k tail does not (K = 100), an aligned one of whole steps (K = 96), one with an offset A and one with every
  // operand's rows off 16 bytes (unaligned interior tiles: unchecked scalar loads, issue 43 step 50);
  // C's rows of 33 floats (every store alone) and, for every other config, 36 (with cvec1: 16-byte runs, the last one
  // cut);
  // every layout; two k slices (below). Split-k in 3 ranges with
  // beta, bias and gelu, finished in the pass (the arrival counters come back to zero) and by the reduce pass
  // (reduce1): fused = unfused, bits repeat.
  const KernelFamily* family = find_family("warptile");
  ASSERT_NE(family, nullptr);
  auto tile = [](uint32_t bm, uint32_t bn, uint32_t bk, uint32_t wm, uint32_t wn, uint32_t tm, uint32_t tn,
                 uint32_t splits, uint32_t reduce = 0, uint32_t ahead = 0, uint32_t tiles = 1, uint32_t cvec = 0) {
    return Config{{{"bm", bm},
                   {"bn", bn},
                   {"bk", bk},
                   {"wm", wm},
                   {"wn", wn},
                   {"tm", tm},
                   {"tn", tn},
                   {"splits", splits},
                   {"reduce", reduce},
                   {"ahead", ahead},
                   {"tiles", tiles},
                   {"cvec", cvec}}};
  };
  // Half of them read each k row's fragments a row ahead (ahead1), at every BK; three compute 2 or 4 tiles in turn
  // (a workgroup's last tiles past N at N = 33 and 192); five write C's runs as 16-byte stores (cvec1: all of those).
  const Config configs[] = {tile(32, 64, 8, 16, 64, 4, 8, 1),
                            tile(64, 32, 16, 64, 16, 8, 4, 1, 0, 1),
                            tile(32, 64, 32, 16, 64, 8, 4, 1, 0, 1),
                            tile(64, 32, 8, 64, 16, 4, 8, 1),
                            tile(64, 64, 16, 32, 64, 8, 8, 1, 0, 0, 1, 1),
                            tile(64, 128, 8, 32, 64, 8, 8, 1, 0, 1, 1, 1),
                            tile(32, 32, 8, 16, 32, 4, 4, 1, 0, 0, 4, 1),
                            tile(64, 64, 16, 32, 64, 8, 8, 1, 0, 1, 2, 1),
                            tile(32, 64, 8, 16, 64, 4, 8, 1, 0, 0, 2, 1)};
  const auto layouts = {Layout{false, false}, Layout{false, true}, Layout{true, false}, Layout{true, true}};
  auto expect_verified = [&](const Config& config, const GemmProblem& p) {
    GemmRunner runner(device(), p, RunOptions{});
    const Measurement m = runner.verify(*family, config);
    EXPECT_EQ(m.disposition, Disposition::passed) << family->config_name(config, p.dtype) << " " << p.shape.to_string()
                                                  << " " << p.layout.name() << ": " << m.detail;
  };
  const Shape shapes[] = {{17, 33, 65, 1}, {128, 192, 100, 1}, {64, 64, 48, 1}, {128, 128, 96, 1}, {150, 141, 67, 1}};
  size_t which = 0;  // each config in every layout, the shapes taking turns (a pipeline build per case on lavapipe)
  for (const Config& config : configs)
    for (Layout layout : layouts) {
      const Shape shape = shapes[which++ % 5];
      GemmProblem p{shape, DType::f32, 1.0f, 0.0f, layout};
      if (shape.k == 48) p.a.offset = 1;
      // C's rows on 16 bytes with N off the 4 grid: runs of 4 columns leave as one 16-byte store, the last in parts.
      if (shape.n == 33 && (which / 4) % 2 == 0) p.c.ld = 36;  // every other config
      expect_verified(config, p);
    }
  // Tiles of 16 rows (M <= 16 only): 4 x 4 and 4 x 8 lanes, one k range and three through the reduce pass, two tiles
  // a workgroup in turn; in every layout at M = 13 and 16 (a batch of two, beta).
  const Config rows16[] = {tile(16, 64, 8, 16, 32, 4, 4, 1), tile(16, 128, 16, 16, 64, 4, 8, 3, 1, 1),
                           tile(16, 32, 32, 16, 32, 4, 4, 1, 0, 0, 2, 1)};
  for (const Config& config : rows16)
    for (Layout layout : layouts) {
      const Shape shape = which++ % 2 == 0 ? Shape{13, 200, 400, 1} : Shape{16, 130, 480, 2};
      GemmProblem p{shape, DType::f32, 1.0f, 0.5f, layout};
      expect_verified(config, p);
    }
  // Two k slices (kslices2: the second group's sums added in shared memory), unsplit and in three ranges through the
  // reduce pass, both kk loops, BK 8 and 16; in every layout on an odd shape (K off the step) and an aligned batch
  // of two (beta, bias).
  auto sliced = [](Config c) {
    c.values.push_back({"kslices", 2});
    return c;
  };
  const Config slices[] = {sliced(tile(64, 64, 8, 32, 32, 8, 4, 1)), sliced(tile(32, 64, 16, 16, 64, 8, 4, 3, 1, 1))};
  for (const Config& config : slices)
    for (Layout layout : layouts) {
      const bool odd = which++ % 2 == 0;
      GemmProblem p{odd ? Shape{77, 123, 301, 1} : Shape{128, 128, 256, 2}, DType::f32, 1.0f, odd ? 0.0f : 0.5f,
                    layout};
      p.epilogue.bias = !odd;
      expect_verified(config, p);
    }
  for (Layout layout : layouts) {
    GemmProblem p{{70, 96, 1000, 2}, DType::f32, 0.5f, -1.5f, layout};
    p.epilogue.bias = true;
    p.epilogue.activation = Activation::gelu_tanh;
    GemmRunner runner(device(), p, RunOptions{});
    const Config config = tile(64, 32, 16, 32, 32, 8, 4, 3, layout.trans_a ? 1 : 0);  // tn, tt: the reduce pass
    const std::string name = family->config_name(config, p.dtype) + " " + layout.name();
    ASSERT_EQ(runner.evaluate(*family, config, 1, 2).disposition, Disposition::passed) << name;
    const std::vector<float> first = runner.last_result();
    ASSERT_EQ(runner.verify(*family, config).disposition, Disposition::passed) << name;
    EXPECT_EQ(0, std::memcmp(first.data(), runner.last_result().data(), first.size() * sizeof(float))) << name;
    const std::vector<float> unfused = runner.run_unfused(*family, config);
    EXPECT_EQ(0, std::memcmp(first.data(), unfused.data(), first.size() * sizeof(float))) << name << ": fused";
  }
  GemmProblem ordered{{64, 64, 64, 1}, DType::f32, 1.0f, 0.0f};
  ordered.mode = Mode::deterministic;
  const SearchSpace space = build_search_space({family}, ordered, device().info());
  ASSERT_EQ(space.not_applicable.size(), 1u);
  EXPECT_NE(space.not_applicable[0].reason.find("deterministic"), std::string::npos);
}

TEST_F(GemmOperation, APerturbedDeviceResultFailsVerification) {
  GemmProblem p{{64, 64, 64, 1}, DType::bf16, 1.0f, 0.0f};
  GemmRunner runner(device(), p, RunOptions{});
  Candidate c = sampled_candidates(p, 1).front();
  ASSERT_EQ(runner.verify(*c.family, c.config).disposition, Disposition::passed);
  std::vector<float> result = runner.last_result();
  result[5] += 1.0f;  // max|ref| is about sqrt(64)/3: far past the bf16 bound
  EXPECT_FALSE(compare_with_reference(result, runner.reference(), dtype_error_bound(p.dtype)).passed);
}

TEST_F(GemmOperation, OversizedOperandsAreRefusedWithNeededAndLimit) {
  GemmProblem p{{65536, 65536, 2, 1}, DType::f32, 1.0f, 0.0f};  // C is 16 GiB
  try {
    check_problem_fits(p, device());
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::unsupported);
    std::string msg = e.what();
    EXPECT_NE(msg.find("operand C needs"), std::string::npos) << msg;
    EXPECT_NE(msg.find("limit"), std::string::npos) << msg;
  }
}

TEST(ValidationLayer, IsActiveAndCountsErrors) {
  // A zero-sized buffer violates VUID-VkBufferCreateInfo-size-00912: the counter must move, or the
  // "no validation error" checks of every other test prove nothing.
  uint64_t before = instance().validation_errors();
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = 0;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkResult r = vkCreateBuffer(device().handle(), &info, nullptr, &buffer);
  if (r == VK_SUCCESS && buffer != VK_NULL_HANDLE) vkDestroyBuffer(device().handle(), buffer, nullptr);
  EXPECT_GT(instance().validation_errors(), before);
}

}  // namespace gemmtune::test

namespace gemmtune::test {
// A family's error model is what its results are held to, on the host and in screening's check on the device alike:
// the same correct tiled config fails under a bound no f32 sum of 1000 terms meets.
TEST_F(GemmOperation, AFamilysErrorModelIsTheBoundItsResultsAreHeldTo) {
  GemmProblem p{{64, 64, 1000, 1}, DType::f32, 1.0f, 0.0f};
  KernelFamily strict = family_named("tiled");
  strict.error_model = [](DType) { return 1e-12; };
  const Config config{{{"bm", 32}, {"bn", 32}, {"bk", 16}, {"tm", 2}, {"tn", 2}}};
  GemmRunner runner(device(), p, RunOptions{});
  const Measurement plain = runner.verify(family_named("tiled"), config);
  ASSERT_EQ(plain.disposition, Disposition::passed);
  EXPECT_EQ(plain.error.bound, dtype_error_bound(DType::f32));
  const Measurement held = runner.verify(strict, config);
  EXPECT_EQ(held.disposition, Disposition::incorrect);
  EXPECT_EQ(held.error.bound, 1e-12);
  EXPECT_GT(held.error.error, 1e-12);
  const Measurement screened = runner.screen(strict, config, 1e12);
  EXPECT_EQ(screened.disposition, Disposition::incorrect) << screened.detail;
  EXPECT_EQ(runner.screen(family_named("tiled"), config, 1e12).disposition, Disposition::passed);
}
}  // namespace gemmtune::test
