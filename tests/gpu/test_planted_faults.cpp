// Planted faults (issue 19): each test-only family is a real one whose module carries one mistake a developer could
// make (kernels/CMakeLists.txt, src/kernels/test_variants.cpp). The product's own verification must refuse every
// config that takes the faulty path, on odd shapes, in every type the fault applies to (float, or 8-bit for the
// zero point), while the real family passes the same
// configs (so the refusal is the fault's). The summation-order faults (reversed planes) keep results within the
// bounds, pass in fast mode, and are refused in deterministic mode by the runner's host model of the order
// (verify/order_model.hpp). Each is refused by screening's device check too (run/device_check.hpp).
#include "gpu/lavapipe_env.hpp"
#include "kernels/registry.hpp"
#include "run/gemm_runner.hpp"

namespace gemmtune::test {

namespace {
struct FaultCase {
  std::string fault;
  Shape shape;
  Layout layout;
  Config config;
  std::vector<DType> dtypes = {DType::f32, DType::f16, DType::bf16};
  int32_t zero_a = 0;
  Epilogue epilogue = {};
  Mode mode = Mode::fast;
};

Config fewrows(uint32_t unroll, uint32_t vec, uint32_t splits) {
  return Config{{{"cols", 8}, {"slices", 8}, {"unroll", unroll}, {"vec", vec}, {"splits", splits}}};
}
}  // namespace

class PlantedFaults : public GpuTest {};

TEST_F(PlantedFaults, VerificationRefusesEveryOneInEveryTypeItApplies) {
  // K = 1003: an unroll tail (8 slices x 4 terms a trip), ranges of 256 terms with a short last one, and row-dot
  // rows that start off their 16-byte boundaries; N = 77 and 33: unaligned rows and partial tiles.
  const std::vector<FaultCase> cases = {
      {"unroll_tail", {3, 77, 1003, 1}, Layout{false, false}, fewrows(4, 4, 1)},
      {"unroll_tail", {2, 40, 1003, 2}, Layout{true, false}, fewrows(8, 8, 1)},
      {"last_slice", {3, 77, 1003, 1}, Layout{false, false}, fewrows(1, 4, 1)},
      {"dropped_plane", {3, 77, 1003, 1}, Layout{false, false}, fewrows(4, 8, 4)},
      {"rowdot_head",
       {3, 21, 1003, 1},
       Layout{false, true},
       Config{{{"wg", 64}, {"rows", 2}, {"unroll", 2}, {"splits", 1}}}},
      {"rowdot_head",
       {2, 19, 1003, 1},
       Layout{true, true},
       Config{{{"wg", 32}, {"rows", 1}, {"unroll", 1}, {"splits", 4}}}},
      {"edge_column",
       {17, 33, 65, 1},
       Layout{false, false},
       Config{{{"bm", 32}, {"bn", 32}, {"bk", 8}, {"tm", 4}, {"tn", 4}}}},
      {"edge_column",
       {9, 70, 31, 1},
       Layout{true, true},
       Config{{{"bm", 32}, {"bn", 64}, {"bk", 16}, {"tm", 2}, {"tn", 4}}}},
      {"beta_reads_c",
       {17, 33, 65, 1},
       Layout{false, true},
       Config{{{"bm", 32}, {"bn", 32}, {"bk", 8}, {"tm", 4}, {"tn", 4}}}},
      {"bias_shift",
       {17, 33, 131, 1},
       Layout{false, false},
       Config{{{"bm", 32}, {"bn", 32}, {"bk", 8}, {"tm", 4}, {"tn", 4}}},
       {DType::f32, DType::f16, DType::bf16},
       0,
       Epilogue{true, 0, Activation::none}},
      // K = 131: the normwise metric let this one pass in f32 (issue 19); the elementwise epilogue check must not.
      {"gelu_constant",
       {31, 131, 131, 1},
       Layout{false, false},
       Config{{{"bm", 32}, {"bn", 32}, {"bk", 8}, {"tm", 4}, {"tn", 4}}},
       {DType::f32, DType::f16, DType::bf16},
       0,
       Epilogue{true, 0, Activation::gelu_tanh}},
      {"gelu_erf_constant",
       {31, 131, 131, 1},
       Layout{false, false},
       Config{{{"bm", 32}, {"bn", 32}, {"bk", 8}, {"tm", 4}, {"tn", 4}}},
       {DType::f32, DType::f16, DType::bf16},
       0,
       Epilogue{true, 0, Activation::gelu_erf}},
      {"zero_point", {5, 77, 1003, 1}, Layout{false, false}, fewrows(4, 4, 1), {DType::i8, DType::u8, DType::u8i8}, 3},
      {"reversed_planes",
       {3, 77, 1003, 1},
       Layout{false, false},
       fewrows(4, 4, 4),
       {DType::f32, DType::f16, DType::bf16},
       0,
       {},
       Mode::deterministic},
      {"reversed_planes",
       {2, 40, 1003, 2},
       Layout{true, false},
       fewrows(8, 8, 4),
       {DType::f32},
       0,
       Epilogue{true, 0, Activation::relu},
       Mode::deterministic}};
  size_t faults_seen = 0;
  for (const PlantedFault& fault : planted_faults()) {
    size_t cases_run = 0;
    for (const FaultCase& cs : cases) {
      if ("fault_" + cs.fault != fault.family->name) continue;
      for (DType dtype : cs.dtypes) {
        GemmProblem p;
        p.shape = cs.shape;
        p.dtype = dtype;
        p.layout = cs.layout;
        p.zero_a = cs.zero_a;
        p.epilogue = cs.epilogue;
        p.mode = cs.mode;
        GemmRunner runner(device(), p, RunOptions{});
        const std::string name =
            fault.family->config_name(cs.config, dtype) + " " + cs.shape.to_string() + " " + cs.layout.name();
        const Measurement real = runner.verify(*fault.base, cs.config);
        ASSERT_EQ(real.disposition, Disposition::passed) << name << " without the fault: " << real.detail;
        const Measurement planted = runner.verify(*fault.family, cs.config);
        EXPECT_EQ(planted.disposition, Disposition::incorrect) << name << ": not refused (" << fault.what << ")";
        if (dtype == cs.dtypes.front()) {  // the baseline's one-run timing checks its run first too
          const Measurement timed = runner.time_one_run(*fault.family, cs.config);
          EXPECT_EQ(timed.disposition, Disposition::incorrect) << name << ": timed without its check";
          EXPECT_TRUE(timed.samples_us.empty()) << name;
        }
        // Screening's check: on the device where the problem allows it (the real family shows it does), and
        // the fault refused all the same.
        const bool plain = !cs.epilogue.bias && cs.epilogue.activation == Activation::none && cs.mode == Mode::fast;
        EXPECT_EQ(runner.verify_as_screened(*fault.base, cs.config).device_checked, plain) << name;
        const Measurement screened = runner.verify_as_screened(*fault.family, cs.config);
        EXPECT_EQ(screened.disposition, Disposition::incorrect) << name << ": not refused as screened";
        EXPECT_FALSE(screened.device_checked) << name;
        if (fault.order_only) {  // within the bounds: only the order check sees it
          EXPECT_NE(planted.detail.find("summation order"), std::string::npos) << name << ": " << planted.detail;
          p.mode = Mode::fast;
          GemmRunner fast(device(), p, RunOptions{});
          EXPECT_EQ(fast.verify(*fault.family, cs.config).disposition, Disposition::passed) << name << " in fast mode";
        }
        ++cases_run;
      }
    }
    EXPECT_GT(cases_run, 0u) << fault.family->name << " has no case";
    ++faults_seen;
  }
  EXPECT_EQ(faults_seen, 11u);
}

}  // namespace gemmtune::test
