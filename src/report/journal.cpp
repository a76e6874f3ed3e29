#include "report/journal.hpp"

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/strict_json.hpp"

namespace gemmtune {

using json = nlohmann::json;

std::string journal_path_for(const std::string& table_path) { return table_path + ".journal.jsonl"; }

std::string journal_line(const JournalRecord& r) {
  json j = {{"device", r.device},
            {"tool", r.tool},
            {"problem", r.problem},
            {"phase", r.phase},
            {"config", r.config},
            {"disposition", r.disposition},
            {"detail", r.detail},
            {"samples_us", r.samples_us},
            {"runs_per_sample", r.runs_per_sample},
            {"median_us", r.median_us},
            {"min_us", r.min_us},
            {"cv", r.cv},
            {"gflops", r.gflops},
            {"error", r.error},
            {"elementwise_rel_error", r.elementwise_rel_error},
            {"bound", r.bound},
            {"compile_ms", r.compile_ms}};
  if (!r.pipeline_statistics.empty()) {
    json stats = json::object();
    for (const auto& [name, value] : r.pipeline_statistics) stats[name] = value;
    j["pipeline_statistics"] = stats;
  }
  return j.dump();
}

std::optional<JournalRecord> parse_journal_line(const std::string& line) {
  try {
    const json j = parse_json_without_duplicates<json>(line);
    JournalRecord r;
    r.device = j.at("device").get<std::string>();
    r.tool = j.at("tool").get<std::string>();
    r.problem = j.at("problem").get<std::string>();
    r.phase = j.at("phase").get<std::string>();
    r.config = j.at("config").get<std::string>();
    r.disposition = j.at("disposition").get<std::string>();
    r.detail = j.at("detail").get<std::string>();
    r.samples_us = j.at("samples_us").get<std::vector<double>>();
    // Checked before get<uint32_t>(): nlohmann converts a float or a negative number unchecked (undefined).
    const json& runs = j.at("runs_per_sample");
    if (!runs.is_number_unsigned() || runs.get<uint64_t>() > UINT32_MAX) return std::nullopt;
    r.runs_per_sample = runs.get<uint32_t>();
    r.median_us = j.at("median_us").get<double>();
    r.min_us = j.at("min_us").get<double>();
    r.cv = j.at("cv").get<double>();
    r.gflops = j.at("gflops").get<double>();
    r.error = j.at("error").get<double>();
    r.elementwise_rel_error = j.at("elementwise_rel_error").get<double>();
    r.bound = j.at("bound").get<double>();
    r.compile_ms = j.at("compile_ms").get<double>();
    if (const auto it = j.find("pipeline_statistics"); it != j.end()) {
      if (!it->is_object()) return std::nullopt;
      for (const auto& [name, value] : it->items()) r.pipeline_statistics.emplace_back(name, value.get<double>());
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
