// The row-dot family on the matrix units (M <= 16, f16 and bf16, B stored either way): what it refuses, with the
// reason, on every device; on a device with 16 x 16 x 16 cooperative matrices (the H200 run, see
// results/h200/notes.md) every config at the edges it handles: a last block of rows that overlaps the one
// before (N = 37), whole-fragment leftovers and a last partial fragment of k (K = 584, 1032), k split over 2 and 4
// ranges (the last one ending in the partial fragment), op(A) staged from vector loads and element by element
// (tt), batches with shared B, beta, bias and activations; fragments built in registers (REGS) at M = 5 and 16; B
// stored K x N (nn, tn) at N = 40 (the last block overlapping) and 104.
// The fragment-layout probe prints which elements of a 16 x 16 fragment each invocation holds.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "gpu/lavapipe_env.hpp"
#include "kernels/matrix_requirements.hpp"
#include "kernels/registry.hpp"
#include "kernels/spirv.hpp"
#include "run/gemm_runner.hpp"
#include "tuner/space.hpp"
#include "vk/resources.hpp"

namespace gemmtune::test {

namespace {
GemmProblem rowmma_problem(Shape shape, DType dtype, bool trans_a) {
  GemmProblem p;
  p.shape = shape;
  p.dtype = dtype;
  p.layout = Layout{trans_a, true};
  return p;
}

bool device_serves_rowmma(DType dtype) { return !coopmat_unsupported(device().info(), std::string(dtype_name(dtype))); }
}  // namespace

class RowMma : public GpuTest {};

TEST_F(RowMma, RefusesWhatItCannotServeWithTheReason) {
  const vk::DeviceInfo& d = device().info();
  struct Refusal {
    std::string label;
    GemmProblem problem;
    std::string reason;
  };
  std::vector<Refusal> refusals;
  refusals.push_back({"f32", rowmma_problem({4, 64, 64, 1}, DType::f32, false), "f16 and bf16 inputs only"});
  refusals.push_back({"M 17", rowmma_problem({17, 64, 64, 1}, DType::f16, false), "at most 16 rows"});
  GemmProblem nn = rowmma_problem({4, 100, 64, 1}, DType::f16, false);
  nn.layout.trans_b = false;
  nn.b.ld = 104;  // rows on 16 bytes, but the last block of columns would start at column 84
  refusals.push_back({"nn N 100", nn, "B stored K x N with N = 100, not a multiple of 8"});
  refusals.push_back({"K 999", rowmma_problem({4, 64, 999, 1}, DType::bf16, false), "K = 999 is not a multiple of 8"});
  refusals.push_back({"N 9", rowmma_problem({4, 9, 64, 1}, DType::f16, false), "N and K of at least 16"});
  GemmProblem offset = rowmma_problem({4, 64, 64, 1}, DType::f16, false);
  offset.b.offset = 3;
  refusals.push_back({"B offset 3", offset, "16-byte boundaries"});
  GemmProblem deterministic = rowmma_problem({4, 64, 64, 1}, DType::f16, false);
  deterministic.mode = Mode::deterministic;
  refusals.push_back({"deterministic", deterministic, "fast mode only"});
  for (const Refusal& r : refusals) {
    const auto reason = family_named("rowmma").not_applicable(r.problem, d);
    ASSERT_TRUE(reason.has_value()) << r.label;
    EXPECT_NE(reason->find(r.reason), std::string::npos) << r.label << ": " << *reason;
  }
  // A problem it is built for: served where the device has the fragments, refused naming the extension or
  // feature it lacks elsewhere (lavapipe), and the tuner reports that refusal.
  const GemmProblem fits = rowmma_problem({4, 64, 64, 1}, DType::f16, false);
  const auto reason = family_named("rowmma").not_applicable(fits, d);
  EXPECT_EQ(reason.has_value(), !device_serves_rowmma(DType::f16));
  if (reason) {
    EXPECT_NE(reason->find("not supported on"), std::string::npos) << *reason;
    SearchSpace space = build_search_space(kernel_families(), fits, d);
    EXPECT_TRUE(std::any_of(space.not_applicable.begin(), space.not_applicable.end(),
                            [](const NotApplicable& n) { return n.variant == "rowmma"; }));
  }
}

TEST_F(RowMma, VerifiesEveryConfigAtTheEdges) {
  if (!device_serves_rowmma(DType::f16))
    GTEST_SKIP() << "no 16x16x16 f16 cooperative matrices here; the H200 run covers this test";
  // Every config of the space on one problem with every edge: N = 37 (last block overlaps), K = 584 (36 whole
  // fragments and a partial one: leftovers for every SUBGROUPS x UNROLL that does not divide 36; with 2 or 4
  // ranges of k, 288 or 160 terms, the last range 296 or 104 terms, partial fragment included), M = 3.
  const GemmProblem edges = rowmma_problem({3, 37, 584, 1}, DType::f16, false);
  SearchSpace space = build_search_space({&family_named("rowmma")}, edges, device().info());
  ASSERT_TRUE(space.not_applicable.empty());
  ASSERT_GE(space.candidates.size(), 90u);
  for (uint32_t splits : {1u, 2u, 4u})
    EXPECT_TRUE(std::any_of(space.candidates.begin(), space.candidates.end(),
                            [&](const Candidate& c) { return c.config.get("splits") == splits; }))
        << "no config of " << splits << " k ranges";
  GemmRunner edge_runner(device(), edges, RunOptions{});
  for (const Candidate& c : space.candidates) {
    const Measurement r = edge_runner.verify(family_named("rowmma"), c.config);
    EXPECT_EQ(r.disposition, Disposition::passed) << c.name << ": " << r.detail;
  }
  // B stored K x N (nn and tn): every config at N = 40 (the last block starts at column 24, overlapping the one
  // before) and K = 584, op(A) stored both ways.
  for (bool trans_a : {false, true}) {
    GemmProblem kxn = rowmma_problem({5, 40, 584, 1}, DType::f16, trans_a);
    kxn.layout.trans_b = false;
    SearchSpace s = build_search_space({&family_named("rowmma")}, kxn, device().info());
    ASSERT_GE(s.candidates.size(), 30u);
    GemmRunner runner(device(), kxn, RunOptions{});
    for (const Candidate& c : s.candidates) {
      const Measurement r = runner.verify(family_named("rowmma"), c.config);
      EXPECT_EQ(r.disposition, Disposition::passed) << kxn.layout.name() << " " << c.name << ": " << r.detail;
    }
  }
  // B stored K x N, fragments built in registers (the rows of a workgroup's blocks interleaved): N = 136 gives 8,
  // 4 or 2 workgroups of 1, 2 or 4 whole blocks and one whose blocks overlap (staged); K = 1024 gives whole trips for
  // every SUBGROUPS x UNROLL and split but sgk 16 in 4 ranges (staged), K = 1032 a partial fragment in the last range.
  for (bool trans_a : {false, true}) {
    for (uint64_t k : {1024u, 1032u}) {
      GemmProblem kxn = rowmma_problem({5, 136, k, 1}, DType::f16, trans_a);
      kxn.layout.trans_b = false;
      SearchSpace s = build_search_space({&family_named("rowmma")}, kxn, device().info());
      GemmRunner runner(device(), kxn, RunOptions{});
      size_t regs = 0;
      for (const Candidate& c : s.candidates) {
        if (c.config.get("regs") != 1) continue;
        ++regs;
        const Measurement r = runner.verify(family_named("rowmma"), c.config);
        EXPECT_EQ(r.disposition, Disposition::passed)
            << kxn.layout.name() << " K " << k << " " << c.name << ": " << r.detail;
      }
      EXPECT_GE(regs, 9u);
    }
  }
  // Every row count and type, all four layouts, a K of many trips with a partial fragment, rotating configs.
  size_t turn = 0;
  for (uint64_t m : {1u, 2u, 5u, 8u, 16u}) {
    for (DType dtype : {DType::f16, DType::bf16}) {
      for (uint32_t layout = 0; layout < 4; ++layout) {
        const bool trans_a = layout % 2 == 1, trans_b = layout < 2;
        for (uint64_t k : {1024u, 1032u}) {
          GemmProblem p = rowmma_problem({m, trans_b ? 100u : 104u, k, 1}, dtype, trans_a);
          p.layout.trans_b = trans_b;
          if (!device_serves_rowmma(dtype)) continue;
          SearchSpace s = build_search_space({&family_named("rowmma")}, p, device().info());
          ASSERT_FALSE(s.candidates.empty());
          std::vector<const Candidate*> configs{&s.candidates[(turn++ * 7919) % s.candidates.size()]};
          if (m == 5 || m == 16) {  // and the first with fragments in registers (rows g + 8 at M = 16)
            auto regs = std::find_if(s.candidates.begin(), s.candidates.end(),
                                     [](const Candidate& c) { return c.config.get("regs") == 1; });
            ASSERT_NE(regs, s.candidates.end());
            configs.push_back(&*regs);
          }
          GemmRunner runner(device(), p, RunOptions{});
          for (const Candidate* c : configs) {
            const Measurement r = runner.verify(family_named("rowmma"), c->config);
            EXPECT_EQ(r.disposition, Disposition::passed)
                << p.shape.to_string() << " " << p.layout.name() << " " << c->name << ": " << r.detail;
          }
        }
      }
    }
  }
}

TEST_F(RowMma, OpAStoredKByMVerifiesAcrossTheRegsConfigs) {
  if (!device_serves_rowmma(DType::f16))
    GTEST_SKIP() << "no 16x16x16 f16 cooperative matrices here; the H200 run covers this test";
  // op(A) stored K x M with rows of 8 or 16 on 16 bytes: the register path loads A's rows as stored and passes the
  // pair's fragments through shared memory (A_KXM_ROWS). A spread of the regs1 configs (every tile, trip and split
  // shape among them), B both ways, K with a partial fragment (leftovers), a batch of two, rows packed (on 16 bytes)
  // or padded off them (M + 3, bf16: the element path).
  const KernelFamily& rowmma = family_named("rowmma");
  size_t verified = 0;
  for (uint64_t m : {8u, 16u}) {
    for (bool trans_b : {true, false}) {
      for (bool padded : {false, true}) {
        GemmProblem p = rowmma_problem({m, 104, 1032, 2}, padded ? DType::bf16 : DType::f16, true);
        p.layout.trans_b = trans_b;
        if (padded) p.a.ld = m + 3;
        if (!device_serves_rowmma(p.dtype)) continue;
        const std::vector<Candidate> regs = candidates_with(rowmma, p, "regs", 1);
        ASSERT_GE(regs.size(), 10u);
        GemmRunner runner(device(), p, RunOptions{});
        for (size_t i = 0; i < regs.size(); i += regs.size() / 10) {
          ++verified;
          const Measurement r = runner.verify(rowmma, regs[i].config);
          EXPECT_EQ(r.disposition, Disposition::passed)
              << p.shape.to_string() << " " << p.layout.name() << (padded ? " lda M + 3" : "") << " " << regs[i].name
              << ": " << r.detail;
        }
      }
    }
  }
  EXPECT_GE(verified, 80u);
}

// The layout gemm_rowmma.comp's REGS path assumes (lane l = 4 g + t; element i): of an A fragment row g + 8 (i / 4),
// column 2 t + i % 2 + 8 ((i / 2) % 2); of a B fragment the same with rows and columns swapped. Where the probe
// reads another, REGS configs stage their fragments (the kernel checks it too): printed, so the notes can say why.
TEST_F(RowMma, FragmentLayoutProbe) {
  if (!device_serves_rowmma(DType::f16))
    GTEST_SKIP() << "no 16x16x16 f16 cooperative matrices here; the H200 run covers this test";
  const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  vk::Buffer in(device(), 256 * 2, storage, true), out(device(), 514 * 4, storage, true);
  std::vector<uint16_t> matrix(256);
  for (uint32_t e = 0; e < 256; ++e) matrix[e] = uint16_t(0x3C00u | e);
  std::memcpy(in.mapped(), matrix.data(), 512);
  std::memset(out.mapped(), 0xFF, 514 * 4);
  vk::ComputePipeline probe(device(), spirv_module("probe_fragments_f16"), {}, {in.handle(), out.handle()}, 0,
                            vk::subgroup_size_to_pin(device().info(), 32));
  vk::Submitter submitter(device(), 10'000'000'000ull);
  submitter.run([&](VkCommandBuffer cmd) { probe.record_dispatch(cmd, nullptr, 1, 1, 1); });
  const auto* got = static_cast<const uint32_t*>(out.mapped());
  ASSERT_EQ(got[512], 8u) << "elements of an A fragment per invocation";
  ASSERT_EQ(got[513], 8u) << "elements of a B fragment per invocation";
  int differ = 0;
  for (uint32_t use = 0; use < 2; ++use) {
    std::printf("%s fragment (row,col) per element, lanes 0-7:\n", use == 0 ? "A" : "B");
    for (uint32_t lane = 0; lane < 32; ++lane) {
      const uint32_t g = lane / 4, t = lane % 4;
      for (uint32_t i = 0; i < 8; ++i) {
        const uint32_t value = got[use * 256 + lane * 8 + i], index = value & 0xFF;
        const uint32_t row = index / 16, col = index % 16;
        if (lane < 8) std::printf("%s(%u,%u)", i == 0 ? "  " : " ", row, col);
        uint32_t want_row = g + 8 * (i / 4), want_col = 2 * t + i % 2 + 8 * ((i / 2) % 2);
        if (use == 1) std::swap(want_row, want_col);
        differ += (value & 0xFF00) != 0x3C00 || row != want_row || col != want_col;
      }
      if (lane < 8) std::printf("\n");
    }
  }
  EXPECT_EQ(differ, 0)
      << "elements whose place differs from the layout rowmma's REGS path assumes (it stages them instead)";
}

}  // namespace gemmtune::test
