// Fuzz target: one journal line (--resume reads them). A line is a record or not; a record must write back to a
// line that reads as the same record.
#include <cstddef>
#include <cstdint>

#include "fuzz_check.hpp"
#include "report/journal.hpp"

using namespace gemmtune;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::optional<JournalRecord> record = parse_journal_line(text);
  if (!record) return 0;
  const std::string line = journal_line(*record);
  const std::optional<JournalRecord> again = parse_journal_line(line);
  if (!again) fuzz::fail("a record's own line does not parse");
  if (journal_line(*again) != line) fuzz::fail("a record does not round-trip");
  return 0;
}
