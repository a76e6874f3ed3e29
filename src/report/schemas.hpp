// The published schemas (configs/schema/), built in: the one source of the readers' rules. Each reader validates a
// document against its schema before it reads a field (report/json_schema.hpp).
#pragma once

#include "report/json_schema.hpp"

namespace gemmtune {

/// configs/schema/tuning-table.schema.json: tables, baselines, merge, lookup, export and report inputs.
const JsonSchema& table_schema();
/// configs/schema/journal-record.schema.json: each line of a journal (a line that breaks it is skipped).
const JsonSchema& journal_record_schema();
/// configs/schema/anchor-line.schema.json: each line of a `report --anchor` file.
const JsonSchema& anchor_line_schema();

}  // namespace gemmtune
