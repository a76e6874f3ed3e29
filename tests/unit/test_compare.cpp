// compare on crafted tables: regressions beyond threshold and noise, noise, faster, lost, missing, new, devices.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "report/compare.hpp"
#include "report/rank_test.hpp"

namespace gemmtune {
namespace {

TableEntry entry(uint64_t m, double us, double cv) {
  TableEntry e;
  e.m = m;
  e.n = e.k = 64;
  e.dtype = "f32";
  ConfigResult c;
  c.variant = "tiled";
  c.name = "tiled_f32_m" + std::to_string(m);
  c.median_us = us;
  c.cv = cv;
  e.best = c;
  return e;
}

TuningTable table(std::vector<TableEntry> entries) {
  TuningTable t;
  t.device = {"GPU", 0x10de, 0x2335, "580.1", "NVIDIA", 4, "1.4", "discrete", "uuid"};
  t.entries = std::move(entries);
  return t;
}

const EntryComparison& find(const Comparison& c, const std::string& prefix) {
  for (const EntryComparison& e : c.entries) {
    if (e.key.rfind(prefix, 0) == 0) return e;
  }
  throw std::runtime_error("no entry " + prefix);
}

TEST(Compare, SlowdownsBeyondThresholdAndNoiseRegressOthersDoNot) {
  TuningTable base = table({entry(1, 100, 0.01), entry(2, 100, 0.01), entry(3, 100, 0.08), entry(4, 100, 0.01),
                            entry(5, 100, 0.01), entry(6, 100, 0.01)});
  TableEntry lost = entry(5, 0, 0);
  lost.best.reset();
  TuningTable fresh = table({entry(1, 110, 0.01),   // +10 %: beyond 5 % and the 2 % noise
                             entry(2, 104, 0.01),   // +4 %: inside the threshold
                             entry(3, 110, 0.01),   // +10 %, but base CV 8 %: noise 16 %
                             entry(4, 80, 0.01),    // faster
                             lost,                  // no verified result any more
                             entry(7, 50, 0.01)});  // only in NEW; 6 is missing
  const Comparison c = compare_tables(base, fresh, CompareOptions{});
  EXPECT_EQ(find(c, "1x").status, "regressed");
  EXPECT_NEAR(find(c, "1x").slowdown, 0.10, 1e-12);
  EXPECT_NEAR(find(c, "1x").noise, 0.02, 1e-12);
  EXPECT_EQ(find(c, "2x").status, "same");
  EXPECT_EQ(find(c, "3x").status, "same");
  EXPECT_NEAR(find(c, "3x").noise, 0.16, 1e-12);
  EXPECT_EQ(find(c, "4x").status, "faster");
  EXPECT_EQ(find(c, "5x").status, "lost");
  EXPECT_EQ(find(c, "6x").status, "missing");
  EXPECT_EQ(find(c, "7x").status, "new");
  EXPECT_TRUE(c.regressed());
  EXPECT_FALSE(c.device_mismatch);

  CompareOptions loose;
  loose.threshold = 0.2;
  fresh.entries[4] = entry(5, 100, 0.0);
  EXPECT_FALSE(compare_tables(base, fresh, loose).regressed());
}

TableEntry sampled(uint64_t m, std::vector<double> samples) {
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  TableEntry e = entry(m, sorted[sorted.size() / 2], 0.01);
  e.best->samples = int(samples.size());
  e.best->samples_us = std::move(samples);
  return e;
}

TEST(RankTest, ExactTailsMatchTheCountedOrderings) {
  // 3 against 3: 20 orderings, U counts 1 1 2 3 3 3 3 2 1 1 for U = 0..9.
  EXPECT_NEAR(rank_test_greater({4, 5, 6}, {1, 2, 3}), 1.0 / 20, 1e-12);   // U = 9, the one ordering
  EXPECT_NEAR(rank_test_greater({1, 3, 5}, {2, 4, 6}), 16.0 / 20, 1e-12);  // U = 3
  EXPECT_NEAR(rank_test_greater({1, 2, 3}, {4, 5, 6}), 1.0, 1e-12);        // U = 0
  EXPECT_NEAR(smallest_rank_test_p(3, 3), 0.05, 1e-12);
  EXPECT_NEAR(smallest_rank_test_p(10, 10), 1.0 / 184756, 1e-15);
  EXPECT_EQ(rank_test_greater({}, {1}), 1.0);
}

TEST(RankTest, LargeOrTiedSetsUseTheNormalApproximation) {
  std::vector<double> base, shifted, same;
  for (int i = 0; i < 60; ++i) {
    base.push_back(100 + (i * 37) % 60 * 0.1);  // 100.0 .. 105.9, interleaved
    same.push_back(100 + (i * 41) % 60 * 0.1);  // the same values in another order
    shifted.push_back(103 + (i * 37) % 60 * 0.1);
  }
  EXPECT_LT(rank_test_greater(shifted, base), 1e-6);
  EXPECT_GT(rank_test_greater(same, base), 0.3);
  EXPECT_LT(rank_test_greater(same, base), 0.7);
  // Ties (equal timestamps) in a small set: approximated, still a real shift.
  EXPECT_LT(rank_test_greater({12, 12, 13, 13, 14, 14, 15, 15}, {10, 10, 11, 11, 10, 11, 10, 11}), 0.01);
}

TEST(Compare, WithSamplesARegressionIsWhatTheRankTestSaysIsReal) {
  const std::vector<double> base_samples = {100, 101, 99, 100.5, 99.5, 100.2, 99.8, 100.1, 99.9, 100.3};
  std::vector<double> slower, overlapping = {90, 130, 95, 125, 100, 120, 92, 128, 98, 122};
  for (double v : base_samples) slower.push_back(v * 1.10);
  TuningTable base =
      table({sampled(1, base_samples), sampled(2, base_samples), sampled(3, {100, 101, 99}), sampled(4, base_samples)});
  std::vector<double> faster;
  for (double v : base_samples) faster.push_back(v * 0.8);
  TuningTable fresh = table({sampled(1, slower),           // every sample 10 % slower: real
                             sampled(2, overlapping),      // median +10 %, but the samples overlap
                             sampled(3, {120, 121, 119}),  // 3 against 3 never reach p < 0.05: noise band
                             sampled(4, faster)});
  const Comparison c = compare_tables(base, fresh, CompareOptions{});
  EXPECT_EQ(find(c, "1x").status, "regressed");
  EXPECT_EQ(find(c, "1x").evidence, "rank test");
  EXPECT_LT(find(c, "1x").p_value, 1e-4);
  EXPECT_EQ(find(c, "2x").status, "same");
  EXPECT_GT(find(c, "2x").slowdown, 0.05);
  EXPECT_GT(find(c, "2x").p_value, 0.05);
  EXPECT_EQ(find(c, "3x").status, "regressed");  // +20 % against a 2 % noise band
  EXPECT_EQ(find(c, "3x").evidence, "noise band, too few samples");
  EXPECT_EQ(find(c, "4x").status, "faster");
  EXPECT_TRUE(c.regressed());
  const std::string text = render_comparison(c, "text", CompareOptions{});
  EXPECT_NE(text.find("rank test"), std::string::npos) << text;
  EXPECT_NE(text.find("too few samples to rank"), std::string::npos) << text;
  // A base table written before samples were kept: the noise band decides, as before.
  TuningTable old = base;
  for (TableEntry& e : old.entries) e.best->samples_us.clear();
  EXPECT_EQ(find(compare_tables(old, fresh, CompareOptions{}), "2x").status, "regressed");
  EXPECT_EQ(find(compare_tables(old, fresh, CompareOptions{}), "2x").evidence, "noise band");
}

TEST(Compare, ARerunConfirmsASlowdownOnlyWhereItsFastQuarterMovesToo) {
  CompareOptions o;
  o.threshold = 0.5;
  // The same kernel on a loaded CPU device: two thirds of each side's samples caught scheduling slices, NEW's longer
  // ones, so the medians differ fourfold and the rank test calls it real (p < 0.05), but the fast quarters agree.
  Rerun noise;
  noise.base_samples_us = {50, 51, 52, 53, 100, 101, 102, 103, 104, 105, 106, 107};
  noise.new_samples_us = {50, 51, 52, 53, 400, 410, 420, 430, 440, 450, 460, 470};
  EXPECT_LT(rank_test_greater(noise.new_samples_us, noise.base_samples_us), CompareOptions{}.alpha);
  EntryComparison cleared;
  cleared.status = "regressed";
  apply_rerun(cleared, noise, o);
  EXPECT_EQ(cleared.status, "same") << cleared.rerun;
  // A real threefold slowdown moves both.
  Rerun slower;
  slower.base_samples_us = {50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61};
  for (double v : slower.base_samples_us) slower.new_samples_us.push_back(3 * v);
  EntryComparison kept;
  kept.status = "regressed";
  apply_rerun(kept, slower, o);
  EXPECT_EQ(kept.status, "regressed") << kept.rerun;
  EXPECT_NE(kept.rerun.find("rerun +200.0%"), std::string::npos) << kept.rerun;
}

TEST(Compare, DifferentDevicesAreFlaggedDriverUpdatesAreNot) {
  TuningTable base = table({entry(1, 100, 0.01)});
  TuningTable fresh = base;
  fresh.device.driver_version = "581.0";
  EXPECT_FALSE(compare_tables(base, fresh, CompareOptions{}).device_mismatch);
  fresh.device.device_id = 0x2336;
  EXPECT_TRUE(compare_tables(base, fresh, CompareOptions{}).device_mismatch);
}

TEST(Compare, RenderingsCarryEveryEntry) {
  const Comparison c = compare_tables(table({entry(1, 100, 0.01)}), table({entry(1, 120, 0.01)}), CompareOptions{});
  EXPECT_NE(render_comparison(c, "text", CompareOptions{}).find("regressed"), std::string::npos);
  EXPECT_NE(render_comparison(c, "md", CompareOptions{}).find("| 1x64x64 f32 nn | **regressed** |"), std::string::npos);
  // A side without a verified result prints "-", not 0.00.
  const Comparison one_sided =
      compare_tables(table({entry(1, 100, 0.01)}), table({entry(2, 120, 0.01)}), CompareOptions{});
  const std::string text = render_comparison(one_sided, "text", CompareOptions{});
  EXPECT_EQ(text.find(" 0.00 "), std::string::npos) << text;
  EXPECT_NE(text.find("100.00 ->          - us"), std::string::npos) << text;
  const std::string junit = render_comparison(c, "junit", CompareOptions{});
  EXPECT_NE(junit.find("failures=\"1\""), std::string::npos);
  EXPECT_NE(junit.find("<failure message=\"regressed +20.0%"), std::string::npos) << junit;
  EXPECT_NE(render_comparison(c, "json", CompareOptions{}).find("\"regressions\": 1"), std::string::npos);
}

TEST(Compare, ThresholdsParseAsPercentages) {
  EXPECT_DOUBLE_EQ(parse_percent("5%", "--threshold"), 0.05);
  EXPECT_DOUBLE_EQ(parse_percent("2.5", "--threshold"), 0.025);
  for (const char* bad : {"", "%", "-5%", "five", "5%%", ".5"}) {
    EXPECT_THROW(parse_percent(bad, "--threshold"), Error) << bad;
  }
}

}  // namespace
}  // namespace gemmtune

#include "report/merge.hpp"

namespace gemmtune {
namespace {

TEST(Merge, TheFasterVerifiedEntryStaysAndDevicesMustAgree) {
  TableEntry unverified = entry(3, 0, 0);
  unverified.best.reset();
  TuningTable a = table({entry(1, 100, 0.01), entry(2, 50, 0.01), unverified});
  TuningTable b = table({entry(1, 90, 0.01), entry(2, 60, 0.01), entry(3, 70, 0.01), entry(4, 10, 0.01)});
  a.peak = DevicePeak{1, 0, 2, "2026-11-29T10:00:00Z"};
  b.peak = DevicePeak{3, 0, 4, "2026-11-29T11:00:00Z"};
  const TuningTable m = merge_tables({a, b}, {"a.json", "b.json"});
  ASSERT_EQ(m.entries.size(), 4u);
  EXPECT_EQ(m.entries[0].best->median_us, 90.0);  // b's is faster
  EXPECT_EQ(m.entries[1].best->median_us, 50.0);  // a's is faster: merging never slows an entry
  ASSERT_TRUE(m.entries[2].best);                 // a verified result beats none
  EXPECT_EQ(m.entries[2].best->median_us, 70.0);
  EXPECT_EQ(m.entries[3].m, 4u);
  EXPECT_EQ(m.peak->f32_tflops, 3.0);  // the newest measurement
  TuningTable other = b;
  other.device.pipeline_cache_uuid = "another";
  try {
    merge_tables({a, other}, {"a.json", "c.json"});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::unsupported);
    EXPECT_NE(std::string(e.what()).find("c.json"), std::string::npos);
  }
}

}  // namespace
}  // namespace gemmtune

#include "kernels/registry.hpp"
#include "report/lookup.hpp"

namespace gemmtune {
namespace {

/// What the kernel families say a table's config needs of other shapes (as `gemmtune lookup` asks them).
std::optional<ShapeNeeds> needs_of(const ConfigResult& c, const std::string& dtype, const std::string& layout) {
  return tuned_shape_needs(c.variant, c.params, parse_dtype(dtype, "dtype"), parse_layout(layout, "layout"));
}

LookupResult lookup(const TuningTable& t, uint64_t m, uint64_t n, uint64_t k, const std::string& dtype,
                    const std::string& layout) {
  return lookup_config(t, m, n, k, 1, dtype, layout, needs_of);
}

TEST(Lookup, ExactThenNearestThatCanServeThenDefault) {
  const std::vector<std::pair<std::string, uint32_t>> tile = {{"bm", 64}, {"bn", 64}, {"bk", 16}, {"tm", 4}, {"tn", 4}};
  TableEntry a = entry(1024, 10, 0), b = entry(4, 5, 0), c = entry(128, 7, 0);
  a.n = a.k = 1024;
  a.best->params = tile;
  b.n = 4096, b.k = 1024;
  b.best->variant = "fewrows";
  b.best->name = "fewrows_f32_x";
  b.best->params = {{"cols", 32}, {"slices", 8}, {"unroll", 1}, {"vec", 4}};  // one k range: "splits" left out
  c.n = 1024, c.k = 256;
  c.best->variant = "splitk";
  c.best->name = "splitk_f32_s8";
  c.best->params = tile;
  c.best->params.emplace_back("splits", 8);
  TableEntry nt = entry(1024, 1, 0);
  nt.n = nt.k = 1024;
  nt.layout = "nt";
  nt.best->name = "tiled_f32_nt";
  nt.best->params = tile;
  TableEntry unknown = entry(100, 1, 0);  // a variant this build does not know: its own shape only
  unknown.best->variant = "future";
  unknown.best->name = "future_f32";
  const TuningTable t = table({a, b, c, nt, unknown});
  LookupResult r = lookup(t, 1024, 1024, 1024, "f32", "nn");
  EXPECT_EQ(r.rule, "exact");
  EXPECT_EQ(r.config, a.best->name);
  r = lookup(t, 2, 4096, 1024, "f32", "nn");  // nearest: the decode shape, served by few-rows
  EXPECT_EQ(r.rule, "nearest");
  EXPECT_EQ(r.config, "fewrows_f32_x");
  r = lookup(t, 16, 4096, 1024, "f32",
             "nn");  // M = 16: the float few-rows kernel holds 8 rows; the split-k entry is next
  EXPECT_EQ(r.config, "splitk_f32_s8");
  r = lookup(t, 128, 1024, 300, "f32", "nn");  // K = 300: 8 ranges of 64 terms need 512 (ranges of 32-multiples)
  EXPECT_NE(r.config, "splitk_f32_s8");
  r = lookup(t, 128, 1024, 1024, "f32", "nn");  // 8 ranges of 128 terms
  EXPECT_EQ(r.config, "splitk_f32_s8");
  EXPECT_NEAR(r.distance, std::log(1024.0 / 256.0), 1e-12);
  // 8 ranges of 96 terms would leave the last less than 64 (the rule before took any K >= 64 x 8 = 512 here).
  for (uint64_t k : {520, 600}) EXPECT_NE(lookup(t, 128, 1024, k, "f32", "nn").config, "splitk_f32_s8") << k;
  EXPECT_EQ(lookup(t, 100, 64, 64, "f32", "nn").config, "future_f32");  // exact
  EXPECT_NE(lookup(t, 99, 64, 64, "f32", "nn").config, "future_f32");
  r = lookup(t, 64, 64, 64, "f16", "nn");
  EXPECT_EQ(r.rule, "default");
  EXPECT_EQ(r.config, "tiled_f16_bm64_bn64_bk16_tm4_tn4");
  EXPECT_EQ(lookup(t, 1024, 1024, 1024, "f32", "nt").config, "tiled_f32_nt");
}

TEST(Lookup, MatchesTheBatchAndSaysWhichKeyFieldsTheEntryDiffersIn) {
  const std::vector<std::pair<std::string, uint32_t>> tile = {{"bm", 64}, {"bn", 64}, {"bk", 16}, {"tm", 4}, {"tn", 4}};
  TableEntry single = entry(512, 10, 0), batched = entry(512, 20, 0), biased = entry(256, 30, 0);
  single.n = single.k = batched.n = batched.k = biased.n = biased.k = 512;
  batched.batch = 8;
  biased.bias = true;
  for (TableEntry* e : {&single, &batched, &biased}) e->best->params = tile;
  single.best->name = "tiled_f32_single";
  batched.best->name = "tiled_f32_batched";
  biased.best->name = "tiled_f32_biased";
  const TuningTable t = table({single, batched, biased});
  auto find = [&](uint64_t m, uint64_t batch) { return lookup_config(t, m, 512, 512, batch, "f32", "nn", needs_of); };
  LookupResult r = find(512, 8);
  EXPECT_EQ(r.rule, "exact");
  EXPECT_EQ(r.config, "tiled_f32_batched");
  EXPECT_EQ(r.from, "512x512x512x8 f32 nn");
  r = find(512, 1);
  EXPECT_EQ(r.config, "tiled_f32_single");
  r = find(512, 2);  // no entry at batch 2: the nearest, single (ln 2 away) before batched (ln 4)
  EXPECT_EQ(r.rule, "nearest");
  EXPECT_EQ(r.config, "tiled_f32_single");
  EXPECT_NEAR(r.distance, std::log(2.0), 1e-12);
  r = find(256, 1);  // only an entry with a bias at that shape: used, and the bias named
  EXPECT_EQ(r.rule, "exact");
  EXPECT_EQ(r.relaxed, std::vector<std::string>{"bias"});
  EXPECT_TRUE(find(512, 1).relaxed.empty());
}

}  // namespace
}  // namespace gemmtune
