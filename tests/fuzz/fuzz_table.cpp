// Fuzz target: the tuning-table reader (tables, baselines, merge and lookup inputs). An accepted table must
// write back to the same text it reads as; a refused one is one line naming the file.
#include <cstddef>
#include <cstdint>

#include "fuzz_check.hpp"
#include "report/table.hpp"

using namespace gemmtune;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const TuningTable table = table_from_json(text, "fuzz.json");
    const std::string written = table_to_json(table);
    const std::string rewritten = table_to_json(table_from_json(written, "rewritten.json"));
    if (written != rewritten) fuzz::fail("an accepted table does not round-trip");
  } catch (const Error& e) {
    fuzz::check_refusal(e, "fuzz.json", ExitCode::usage);
  }
  return 0;
}
