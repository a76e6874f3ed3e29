#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/files.hpp"
#include "report/html_report.hpp"
#include "report/journal.hpp"
#include "report/table.hpp"

using namespace gemmtune;

namespace {
TuningTable sample_table() {
  TuningTable t;
  t.tool = {"gemmtune", "0.1.0", "abc123"};
  t.device = {"Test GPU",  0x10de,     0x2335,
              "580.1.2.3", "NVIDIA",   4,
              "1.4.312",   "discrete", "00112233-4455-6677-8899-aabbccddeeff"};
  t.created = "2026-11-29T12:00:00Z";
  t.peak = DevicePeak{51.5, 610.5, 4100.25, "2026-11-29T12:00:00Z"};
  TableEntry e;
  e.m = 1024;
  e.n = 768;
  e.k = 3072;
  e.dtype = "f16";
  e.layout = "nt";
  e.ld = {3072, 3072, 768};
  e.batch_stride = {3145728, 0, 786432};
  e.bias = true;
  e.activation = "gelu-erf";
  e.mode = "deterministic";
  e.not_applicable = {{"fewrows", "M = 1024: few-rows serves at most 8 rows of op(A)"}};
  e.best = ConfigResult{"tiled",
                        "tiled_f16_bm64_bn64_bk16_tm4_tn4",
                        {{"bm", 64}, {"bn", 64}, {"bk", 16}, {"tm", 4}, {"tn", 4}},
                        12.5,
                        12.0,
                        1234.5,
                        1e-4,
                        2e-3,
                        2e-3,
                        10,
                        80};
  e.runner_up = ConfigResult{"tiled",
                             "tiled_f16_bm32_bn64_bk16_tm4_tn4",
                             {{"bm", 32}, {"bn", 64}, {"bk", 16}, {"tm", 4}, {"tn", 4}},
                             13.5,
                             13.0,
                             1100.25,
                             1e-4,
                             2e-3,
                             2e-3,
                             10};
  e.best->samples_us = {12.5, 12.0, 12.75, 12.5, 13.0, 12.25, 12.5, 12.625, 12.375, 12.5};
  e.best->screen_us = 12.25;
  e.candidates = {40, 1, 99, 3, 12.5};
  e.budget_exhausted = true;
  e.tune_seconds = 61.5;
  t.entries.push_back(e);
  TableEntry unverified = e;
  unverified.dtype = "bf16";
  unverified.best.reset();
  unverified.runner_up.reset();
  t.entries.push_back(unverified);
  return t;
}

std::string temp_path(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("gemmtune-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

ExitCode code_of_parse(const std::string& text, std::string* message = nullptr) {
  try {
    table_from_json(text, "t.json");
  } catch (const Error& e) {
    if (message) *message = e.what();
    return e.code();
  }
  return ExitCode::ok;
}
}  // namespace

TEST(TuningTable, RoundTripsThroughJson) {
  TuningTable t = sample_table();
  EXPECT_EQ(table_from_json(table_to_json(t), "mem"), t);
  t.peak.reset();  // null until `gemmtune peak` ran
  EXPECT_EQ(table_from_json(table_to_json(t), "mem"), t);
}

TEST(TuningTable, RoundTripsThroughAFileWrittenAtomically) {
  TuningTable t = sample_table();
  std::string path = temp_path("table.json");
  save_table(path, t);
  EXPECT_EQ(load_table(path), t);
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(path).parent_path())) {
    EXPECT_EQ(entry.path().string().find(".tmp."), std::string::npos) << "temp file left: " << entry.path();
  }
}

TEST(TuningTable, UpsertReplacesTheSameKeyAndKeepsOthers) {
  TuningTable t = sample_table();
  TableEntry e = t.entries[0];
  e.best->median_us = 1.0;
  t.upsert(e);
  ASSERT_EQ(t.entries.size(), 2u);
  EXPECT_EQ(t.entries[0].best->median_us, 1.0);
  e.layout = "tt";
  t.upsert(e);
  EXPECT_EQ(t.entries.size(), 3u);
  e.activation = "relu";  // the epilogue is part of the key
  t.upsert(e);
  EXPECT_EQ(t.entries.size(), 4u);
}

TEST(TuningTable, MalformedJsonNamesFileLineAndColumn) {
  std::string msg;
  EXPECT_EQ(code_of_parse("{\n  \"schema_version\": 1,\n  ]", &msg), ExitCode::usage);
  EXPECT_EQ(msg.rfind("t.json:3:", 0), 0u) << msg;
  EXPECT_EQ(code_of_parse("", &msg), ExitCode::usage);
  EXPECT_EQ(code_of_parse("{\"a\": 1,}", &msg), ExitCode::usage);
  EXPECT_EQ(code_of_parse("{\"schema_version\": NaN}", &msg), ExitCode::usage);
}

TEST(TuningTable, WrongSchemaVersionTypesAndMissingKeysAreRefused) {
  std::string good = table_to_json(sample_table());
  std::string msg;
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
  };
  EXPECT_EQ(code_of_parse(replaced("\"schema_version\": 5", "\"schema_version\": 3"), &msg), ExitCode::usage);
  EXPECT_NE(msg.find("schema_version 3"), std::string::npos) << msg;
  EXPECT_EQ(code_of_parse(replaced("\"cold\": false", "\"cold\": 0"), &msg), ExitCode::usage);
  EXPECT_EQ(code_of_parse(replaced("\"m\": 1024", "\"m\": \"1024\""), &msg), ExitCode::usage);
  EXPECT_NE(msg.find("entries[0]"), std::string::npos) << msg;
  EXPECT_EQ(code_of_parse(replaced("\"m\": 1024", "\"m\": -5"), &msg), ExitCode::usage);
  EXPECT_EQ(code_of_parse(replaced("\"vendor_id\"", "\"vendor\""), &msg), ExitCode::usage);
  EXPECT_NE(msg.find("device"), std::string::npos) << msg;
  EXPECT_EQ(code_of_parse("[]", &msg), ExitCode::usage);
  // The samples are optional (tables from before they were kept), but when present they match the count.
  const size_t from = good.find("\"samples_us\"");
  ASSERT_NE(from, std::string::npos);
  const size_t to = good.find(']', from) + 1;
  auto with_samples = [&](const std::string& text) { return std::string(good).replace(from, to - from, text); };
  auto without = [&](const char* key) {
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(good);
    j["entries"][0]["best"].erase(key);
    return j.dump(2);
  };
  EXPECT_EQ(code_of_parse(without("samples_us"), &msg), ExitCode::ok) << msg;
  EXPECT_EQ(code_of_parse(with_samples("\"unused\": 0"), &msg), ExitCode::usage);  // no keys beyond the schema's
  EXPECT_NE(msg.find("entries[0].best.unused: 0: not an allowed key"), std::string::npos) << msg;
  EXPECT_EQ(code_of_parse(with_samples("\"samples_us\": [12.5]"), &msg), ExitCode::usage);
  EXPECT_NE(msg.find("samples_us: 1 values, but samples is 10"), std::string::npos) << msg;
  EXPECT_EQ(code_of_parse(with_samples("\"samples_us\": [1, 1, 1, 1, 1, 1, 1, 1, 1, -1]"), &msg), ExitCode::usage);
  // The screening time likewise: optional, positive where present.
  EXPECT_EQ(code_of_parse(without("screen_us"), &msg), ExitCode::ok) << msg;
  EXPECT_EQ(code_of_parse(replaced("\"screen_us\": 12.25", "\"screen_us\": -1"), &msg), ExitCode::usage);
  EXPECT_NE(msg.find("entries[0].best.screen_us: -1: must be greater than 0"), std::string::npos) << msg;
  EXPECT_EQ(code_of_parse(replaced("\"screen_us\": 12.25", "\"screen_us\": \"12\""), &msg), ExitCode::usage);
}

TEST(Measurement, TimingMovedSaysWhereFinalsAndScreeningDisagreeByMoreThan15Percent) {
  // The H200's bf16 config of issue 21: screened at 454.4 us, 535.6 us in its finals.
  ASSERT_TRUE(timing_moved(454.4, 535.6).has_value());
  EXPECT_NEAR(*timing_moved(454.4, 535.6), 1.1787, 1e-3);
  EXPECT_NEAR(*timing_moved(2559.3, 507.8), 0.1984, 1e-3);  // a screen at idle clocks, finals at full clocks
  EXPECT_FALSE(timing_moved(469.1, 470.3));                 // f16 in the same call: the same
  EXPECT_FALSE(timing_moved(100.0, 115.0));                 // the edges are in
  EXPECT_FALSE(timing_moved(115.0, 100.0));
  EXPECT_TRUE(timing_moved(100.0, 115.1));
  EXPECT_FALSE(timing_moved(0.0, 470.3));  // not screened first
  EXPECT_FALSE(timing_moved(470.3, 0.0));
  // The line tune prints under its best config.
  Measurement m;
  m.screen_us = 454.4;
  m.median_us = 535.6;
  ASSERT_TRUE(timing_moved_note(m).has_value());
  EXPECT_EQ(*timing_moved_note(m),
            "timing moved: the finals' median is 1.18x the screening run's 454.4 us (the "
            "device's clocks or heat changed between them); rerun it to see which holds");
  m.median_us = 470.3;
  EXPECT_FALSE(timing_moved_note(m).has_value());
}

TEST(TuningTable, VersionFourIsReadAsFiveWithItsKernelHashesUnrecorded) {
  // Version 4's kernel_hash covered the main pass only; version 5's covers every module a config may dispatch.
  TuningTable t = sample_table();
  t.entries[0].best->kernel_hash = "fnv1a64:0123456789abcdef";
  t.entries[0].runner_up->kernel_hash = "fnv1a64:fedcba9876543210";
  std::string text = table_to_json(t);
  const size_t at = text.find("\"schema_version\": 5");
  ASSERT_NE(at, std::string::npos);
  const TuningTable current = table_from_json(text, "v5.json");
  EXPECT_EQ(current.entries[0].best->kernel_hash, "fnv1a64:0123456789abcdef");
  text.replace(at, 19, "\"schema_version\": 4");
  const TuningTable migrated = table_from_json(text, "v4.json");
  EXPECT_EQ(migrated.schema_version, 5);
  EXPECT_EQ(migrated.entries[0].best->kernel_hash, "");
  EXPECT_EQ(migrated.entries[0].runner_up->kernel_hash, "");
  EXPECT_EQ(migrated.entries[0].best->median_us, 12.5);
  EXPECT_NE(table_to_json(migrated).find("\"schema_version\": 5"), std::string::npos);
}

TEST(Files, UnreadableAndDirectoryPathsAreIoErrors) {
  try {
    load_table("/nonexistent/table.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::io);
  }
  std::string dir = std::filesystem::path(temp_path("x")).parent_path().string();
  try {
    save_table(dir, sample_table());
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::io);
    EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos);
  }
  EXPECT_THROW(preflight_writable("/nonexistent/folder/t.json"), Error);
}

TEST(TuningTable, CeilingFractionFollowsArithmeticIntensity) {
  DevicePeak peak{10.0, 0.0, 1000.0, "now"};  // 10 TFLOP/s, 1 TB/s: the ridge is at 10 FLOP per byte
  TableEntry e;
  e.m = e.n = e.k = 1024;
  e.dtype = "f32";
  e.batch_stride = {1, 1, 1};
  ConfigResult c;
  c.variant = "tiled";
  c.median_us = 2.0 * 1024 * 1024 * 1024 / 5e12 * 1e6;  // 5 TFLOP/s
  apply_ceiling(c, peak, e, false);                     // intensity 2*1024^3 / (3 * 4 MiB) = 170 FLOP/B: compute-bound
  EXPECT_EQ(c.bound_by, "compute");
  EXPECT_NEAR(c.ceiling_fraction, 0.5, 1e-9);
  e.m = 1;                                                         // a matrix-vector product: memory-bound
  c.median_us = (1024.0 * 1024 * 4 + 1024 * 4 * 2) / 500e9 * 1e6;  // at 500 GB/s
  apply_ceiling(c, peak, e, false);
  EXPECT_EQ(c.bound_by, "memory");
  EXPECT_NEAR(c.ceiling_fraction, 0.5, 1e-9);
  apply_ceiling(c, peak, e, true);  // a matrix-unit family: their rate not measured
  EXPECT_EQ(c.bound_by, "");
  EXPECT_EQ(c.ceiling_fraction, 0.0);
  peak.coopmat_f16_tflops = 100.0;  // measured: matrix-unit families use it, the others keep the FMA rate
  e.m = 1024;
  e.dtype = "f16";
  c.median_us = 2.0 * 1024 * 1024 * 1024 / 25e12 * 1e6;  // 25 TFLOP/s; intensity 2*1024^3 / (2 * 2 MiB + 4 MiB) = 256
  apply_ceiling(c, peak, e, true);
  EXPECT_EQ(c.bound_by, "compute");
  EXPECT_NEAR(c.ceiling_fraction, 0.25, 1e-9);
  apply_ceiling(c, peak, e, false);
  EXPECT_NEAR(c.ceiling_fraction, 2.5, 1e-9);
}

TEST(Journal, PipelineStatisticsRoundTripAndAreOptional) {
  Measurement m;
  m.samples_us = {41.8};
  m.runs_per_sample = 4;
  JournalRecord r{"dev", "gemmtune 0.1.0", "{}", "final", "rowmma_f16_sgk16_frags2_unroll2_wide1", m};
  const std::string plain = journal_line(r);
  EXPECT_EQ(plain.find("pipeline_statistics"), std::string::npos);  // none recorded: no key (older journals read alike)
  ASSERT_TRUE(parse_journal_line(plain).has_value());
  EXPECT_TRUE(parse_journal_line(plain)->measured->pipeline_statistics.empty());

  r.measured->pipeline_statistics = {{"Register Count", 96}, {"reduce: Register Count", 16}, {"Local Memory Size", 0}};
  const std::optional<JournalRecord> back = parse_journal_line(journal_line(r));
  ASSERT_TRUE(back.has_value());
  const std::vector<std::pair<std::string, double>> by_name = {
      {"Local Memory Size", 0}, {"Register Count", 96}, {"reduce: Register Count", 16}};
  EXPECT_EQ(back->measured->pipeline_statistics, by_name);

  // Anything but an object of numbers is not a record.
  for (const char* bad : {"5", "[1]", "{\"Register Count\": \"96\"}"}) {
    std::string line = plain;
    line.insert(line.size() - 1, std::string(",\"pipeline_statistics\":") + bad);
    EXPECT_FALSE(parse_journal_line(line).has_value()) << line;
  }
}

TEST(Journal, ALineThatBreaksTheRecordSchemaIsNotARecord) {
  Measurement m;
  m.samples_us = {41.8};
  m.median_us = m.min_us = 41.8;
  JournalRecord r{"dev", "gemmtune 0.1.0", "{}", "screen", "tiled_f32_bm64_bn64_bk8_tm4_tn4", m};
  const nlohmann::json good = nlohmann::json::parse(journal_line(r));
  ASSERT_TRUE(parse_journal_line(good.dump()).has_value());
  // configs/schema/journal-record.schema.json's rules, each broken once.
  const std::vector<std::pair<const char*, nlohmann::json>> breaks = {
      {"median_us", -1.0}, {"samples_us", nlohmann::json::array({-2.0})},
      {"phase", "middle"}, {"disposition", "fine"},
      {"cv", "0"},         {"runs_per_sample", 1.5},
      {"stray", 1}};
  for (const auto& [key, value] : breaks) {
    nlohmann::json bad = good;
    bad[key] = value;
    EXPECT_FALSE(parse_journal_line(bad.dump()).has_value()) << key;
  }
  nlohmann::json missing = good;
  missing.erase("bound");
  EXPECT_FALSE(parse_journal_line(missing.dump()).has_value());
}

TEST(Journal, CostsAndTheCutRoundTripAndOlderLinesReadWithoutThem) {
  Measurement m;
  m.samples_us = {41.8};
  m.compile_ms = 310.5, m.verify_ms = 12.25, m.warmup_ms = 20.5, m.timing_ms = 2.75, m.total_ms = 351.0;
  m.cut = true;
  m.device_checked = true;
  JournalRecord r{"dev", "gemmtune 0.1.0", "{}", "screen", "tiled_f32_bm64_bn64_bk8_tm4_tn4", m};
  const std::optional<JournalRecord> back = parse_journal_line(journal_line(r));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->measured->verify_ms, 12.25);
  EXPECT_EQ(back->measured->warmup_ms, 20.5);
  EXPECT_EQ(back->measured->timing_ms, 2.75);
  EXPECT_EQ(back->measured->total_ms, 351.0);
  EXPECT_TRUE(back->measured->cut);
  EXPECT_TRUE(back->measured->device_checked);
  // A line from before the costs: no cost_ms and no cut, read as unknown costs, not cut.
  nlohmann::json old = nlohmann::json::parse(journal_line(r));
  old.erase("cost_ms");
  old.erase("cut");
  old.erase("device_checked");
  const std::optional<JournalRecord> older = parse_journal_line(old.dump());
  ASSERT_TRUE(older.has_value());
  EXPECT_EQ(older->measured->total_ms, 0.0);
  EXPECT_FALSE(older->measured->cut);
  // A build cost that disagrees with compile_ms, a cut written false, or a cost that is not a number: no record.
  for (const auto& [key, value] : std::vector<std::pair<std::string, nlohmann::json>>{
           {"cut", false},
           {"device_checked", 1},
           {"cost_ms", {{"build", 1}, {"verify", 0}, {"warmup", 0}, {"timing", 0}, {"total", 0}}},
           {"cost_ms", {{"build", 310.5}, {"verify", "x"}, {"warmup", 0}, {"timing", 0}, {"total", 0}}}}) {
    nlohmann::json bad = nlohmann::json::parse(journal_line(r));
    bad[key] = value;
    EXPECT_FALSE(parse_journal_line(bad.dump()).has_value()) << bad.dump();
  }
}

TEST(TuningTable, ConfigsPerSecondIsOptionalAndMustBeANonNegativeNumber) {
  const TuningTable t = sample_table();
  nlohmann::json j = nlohmann::json::parse(table_to_json(t));
  EXPECT_EQ(table_from_json(j.dump(), "t.json").entries[0].candidates.configs_per_s, 12.5);
  j["entries"][0]["candidates"].erase("configs_per_s");
  EXPECT_EQ(table_from_json(j.dump(), "t.json").entries[0].candidates.configs_per_s, 0.0);
  for (const nlohmann::json& bad : {nlohmann::json(-1.0), nlohmann::json("9"), nlohmann::json(nullptr)}) {
    j["entries"][0]["candidates"]["configs_per_s"] = bad;
    std::string message;
    EXPECT_EQ(code_of_parse(j.dump(), &message), ExitCode::usage) << bad.dump();
    EXPECT_NE(message.find("configs_per_s"), std::string::npos) << message;
  }
}

TEST(HtmlReport, BarsTakeTheColourTheCallerGivesEachVariant) {
  // The report layer has no kernel registry: the CLI passes each family's colour; unknown variants get a neutral one.
  NamedTable t{"t.json", {}};
  TableEntry e;
  e.m = e.n = e.k = 64;
  e.dtype = "f32";
  ConfigResult best;
  best.variant = "tiled";
  best.name = "tiled_f32_a";
  best.median_us = 10;
  best.gflops = 50;
  e.best = best;
  e.variant_best = {{"tiled", "tiled_f32_a", 10, 50}, {"newfamily", "newfamily_f32_b", 12, 40}};
  t.table.entries.push_back(e);
  const std::string html = html_report({t}, {{"tiled", "#123abc"}, {"naive", "#9c755f"}});
  EXPECT_NE(html.find("fill=\"#123abc\""), std::string::npos);
  EXPECT_NE(html.find("fill=\"#76b7b2\""), std::string::npos);                         // newfamily: not in the map
  EXPECT_EQ(html_report({t}, {{"tiled", "#12\"><x"}}).find("<x"), std::string::npos);  // not a colour: neutral
}

namespace gemmtune {
namespace {

TEST(TableKey, OneTypeWithJsonBothWaysDecidesWhatIsTheSameEntry) {
  TableKey key;
  key.m = 512, key.n = 4096, key.k = 14336, key.batch = 3;
  key.dtype = "bf16", key.layout = "nt";
  key.ld = {14336, 14336, 4096}, key.offset = {1, 2, 3}, key.batch_stride = {0, 58720256, 2097152};
  key.alpha = 0.5, key.beta = -1.5, key.bias = true, key.bias_offset = 7, key.activation = "gelu-tanh";
  key.mode = "deterministic", key.cold = true;
  EXPECT_EQ(key_from_json(key_to_json(key)), key);
  EXPECT_EQ(key_to_json(key)["epilogue"]["activation"], "gelu-tanh");  // as the table writes it
  TableEntry a, b;
  static_cast<TableKey&>(a) = key;
  static_cast<TableKey&>(b) = key;
  b.tune_seconds = 9;  // the outcome is not the key
  EXPECT_TRUE(a.same_key(b));
  EXPECT_EQ(entry_key(a), entry_key(b));
  // Every field is part of the key: changing any one makes another entry.
  const std::vector<std::function<void(TableKey&)>> changes = {[](TableKey& k) { k.m += 1; },
                                                               [](TableKey& k) { k.n += 1; },
                                                               [](TableKey& k) { k.k += 1; },
                                                               [](TableKey& k) { k.batch += 1; },
                                                               [](TableKey& k) { k.dtype = "f16"; },
                                                               [](TableKey& k) { k.layout = "nn"; },
                                                               [](TableKey& k) { k.ld.c += 1; },
                                                               [](TableKey& k) { k.offset.a += 1; },
                                                               [](TableKey& k) { k.batch_stride.b = 1; },
                                                               [](TableKey& k) { k.alpha = 1; },
                                                               [](TableKey& k) { k.beta = 0; },
                                                               [](TableKey& k) { k.bias = false; },
                                                               [](TableKey& k) { k.bias_offset = 0; },
                                                               [](TableKey& k) { k.activation = "relu"; },
                                                               [](TableKey& k) { k.mode = "fast"; },
                                                               [](TableKey& k) { k.cold = false; }};
  for (size_t i = 0; i < changes.size(); ++i) {
    TableEntry c = a;
    changes[i](c);
    EXPECT_FALSE(a.same_key(c)) << i;
    EXPECT_NE(entry_key(a), entry_key(c)) << i;
    EXPECT_EQ(key_from_json(key_to_json(c)), c.key()) << i;
  }
}

}  // namespace
}  // namespace gemmtune
