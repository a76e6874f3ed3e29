// The sweep journal: one JSON line per measured config (screening or final, passed or not) and one per
// finished problem, appended and fsynced as the sweep goes, beside the table (<table>.journal.jsonl).
// `--resume` reads it back: finished problems are skipped, screened configs are not measured again, for the
// same device and tool version only. A kill at any point leaves at most a torn last line, which is skipped.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/measurement.hpp"
#include "core/files.hpp"

namespace gemmtune {

struct JournalRecord {
  std::string device;   ///< device identity: name, driver, pipeline-cache UUID
  std::string tool;     ///< tool version and git hash
  std::string problem;  ///< the table key of the operation (canonical JSON, see entry_key)
  std::string phase;    ///< "begin", "screen", "final" or "done" (the problem's entry is in the table)
  std::string config;   ///< config name (empty for "done")
  /// What the config did, as the runner measured it (screen and final records); none for begin and done, whose
  /// lines carry an empty disposition. Its verification figures beyond error, elementwise_rel and bound, and its
  /// error.passed (= passed), are not written.
  std::optional<Measurement> measured;
};

std::string journal_path_for(const std::string& table_path);
std::string journal_line(const JournalRecord& r);
/// One line back into a record; nullopt for anything that is not a whole record.
std::optional<JournalRecord> parse_journal_line(const std::string& line);

/// Reads a journal; a torn last line (a kill while writing) is skipped and counted in `torn`. A malformed
/// line elsewhere is a usage Error "FILE:LINE: reason" (exit 2); an unreadable file an io Error (exit 5).
std::vector<JournalRecord> read_journal(const std::string& path, size_t* torn = nullptr);

}  // namespace gemmtune
