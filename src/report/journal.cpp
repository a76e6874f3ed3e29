#include "report/journal.hpp"

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/strict_json.hpp"
#include "report/schemas.hpp"

namespace gemmtune {

using json = nlohmann::json;

std::string journal_path_for(const std::string& table_path) { return table_path + ".journal.jsonl"; }

namespace {
/// A measurement's fields of a line (all but the disposition).
json measured_fields(const Measurement& m) {
  json j = {{"detail", m.detail},
            {"samples_us", m.samples_us},
            {"runs_per_sample", m.runs_per_sample},
            {"median_us", m.median_us},
            {"min_us", m.min_us},
            {"cv", m.cv},
            {"gflops", m.gflops},
            {"error", m.error.error},
            {"elementwise_rel_error", m.error.elementwise_rel},
            {"bound", m.error.bound},
            {"compile_ms", m.compile_ms},
            {"cost_ms",
             {{"build", m.compile_ms},
              {"verify", m.verify_ms},
              {"warmup", m.warmup_ms},
              {"timing", m.timing_ms},
              {"total", m.total_ms}}}};
  if (m.cut) j["cut"] = true;                        // optional: written only for configs cut short
  if (m.device_checked) j["device_checked"] = true;  // optional: written only where the device check verified
  if (!m.pipeline_statistics.empty()) {
    json stats = json::object();
    for (const auto& [name, value] : m.pipeline_statistics) stats[name] = value;
    j["pipeline_statistics"] = stats;
  }
  return j;
}
}  // namespace

std::string journal_line(const JournalRecord& r) {
  json j = measured_fields(r.measured ? *r.measured : Measurement{});
  j["device"] = r.device;
  j["tool"] = r.tool;
  j["problem"] = r.problem;
  j["phase"] = r.phase;
  j["config"] = r.config;
  j["disposition"] = r.measured ? disposition_name(r.measured->disposition) : "";
  return j.dump();
}

namespace {
/// The measured fields of a line; nullopt where they do not form a measurement gemmtune could have written.
std::optional<Measurement> measured_of(const json& j) {
  Measurement m;
  m.detail = j.at("detail").get<std::string>();
  m.samples_us = j.at("samples_us").get<std::vector<double>>();
  // Checked before get<uint32_t>(): nlohmann converts a float or a negative number unchecked (undefined).
  const json& runs = j.at("runs_per_sample");
  if (!runs.is_number_unsigned() || runs.get<uint64_t>() > UINT32_MAX) return std::nullopt;
  m.runs_per_sample = runs.get<uint32_t>();
  m.median_us = j.at("median_us").get<double>();
  m.min_us = j.at("min_us").get<double>();
  m.cv = j.at("cv").get<double>();
  m.gflops = j.at("gflops").get<double>();
  m.error.error = j.at("error").get<double>();
  m.error.elementwise_rel = j.at("elementwise_rel_error").get<double>();
  m.error.bound = j.at("bound").get<double>();
  m.compile_ms = j.at("compile_ms").get<double>();
  // The cost breakdown came with the journal's later lines; a line without it reads as costs unknown (0).
  if (const auto it = j.find("cost_ms"); it != j.end()) {
    if (!it->is_object() || it->size() != 5 || it->at("build").get<double>() != m.compile_ms) return std::nullopt;
    m.verify_ms = it->at("verify").get<double>();
    m.warmup_ms = it->at("warmup").get<double>();
    m.timing_ms = it->at("timing").get<double>();
    m.total_ms = it->at("total").get<double>();
  }
  for (const auto& [key, flag] : {std::pair{"cut", &m.cut}, std::pair{"device_checked", &m.device_checked}}) {
    const auto it = j.find(key);
    if (it == j.end()) continue;
    if (!it->is_boolean() || !it->get<bool>()) return std::nullopt;  // written only as true
    *flag = true;
  }
  if (const auto it = j.find("pipeline_statistics"); it != j.end()) {
    if (!it->is_object()) return std::nullopt;
    for (const auto& [name, value] : it->items()) m.pipeline_statistics.emplace_back(name, value.get<double>());
  }
  return m;
}

/// A record without a measurement (begin, done) carries the default one's figures; anything else there is refused,
/// since it could not be written back.
bool is_unmeasured(const Measurement& m) { return measured_fields(m) == measured_fields(Measurement{}); }
}  // namespace

std::optional<JournalRecord> parse_journal_line(const std::string& line) {
  try {
    const json j = parse_json_without_duplicates<json>(line);
    if (journal_record_schema().first_error(j)) return std::nullopt;  // configs/schema/journal-record.schema.json
    JournalRecord r;
    r.device = j.at("device").get<std::string>();
    r.tool = j.at("tool").get<std::string>();
    r.problem = j.at("problem").get<std::string>();
    r.phase = j.at("phase").get<std::string>();
    r.config = j.at("config").get<std::string>();
    const std::string disposition = j.at("disposition").get<std::string>();
    std::optional<Measurement> m = measured_of(j);
    if (!m) return std::nullopt;
    if (disposition.empty()) {
      if (!is_unmeasured(*m)) return std::nullopt;
    } else {
      const std::optional<Disposition> d = parse_disposition(disposition);
      if (!d) return std::nullopt;
      m->disposition = *d;
      m->error.passed = *d == Disposition::passed;
      r.measured = std::move(m);
    }
    return r;
  } catch (const json::exception&) {
    return std::nullopt;
  } catch (const JsonRefused&) {
    return std::nullopt;
  }
}

std::vector<JournalRecord> read_journal(const std::string& path, size_t* torn) {
  const std::string text = read_file(path);
  std::vector<JournalRecord> records;
  if (torn) *torn = 0;
  size_t line_no = 0;
  for (size_t begin = 0; begin < text.size();) {
    size_t end = text.find('\n', begin);
    const bool complete = end != std::string::npos;
    if (!complete) end = text.size();
    const std::string line = text.substr(begin, end - begin);
    begin = end + 1;
    ++line_no;
    if (line.empty()) continue;
    std::optional<JournalRecord> r = parse_journal_line(line);
    if (r) {
      records.push_back(std::move(*r));
    } else if (!complete) {  // the line a kill interrupted: its config is simply measured again
      if (torn) ++*torn;
    } else {
      throw Error(ExitCode::usage, path + ":" + std::to_string(line_no) + ": not a journal record");
    }
  }
  return records;
}

}  // namespace gemmtune
