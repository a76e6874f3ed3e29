// `gemmtune merge`: tuning tables of one device combined into one. No GPU.
#pragma once

#include <string>
#include <vector>

#include "report/table.hpp"

namespace gemmtune {

/// Combines tables of one device (the same identity: name, ids, driver, pipeline-cache UUID; else an
/// unsupported Error naming both, exit 3). For a key in several tables the faster verified entry stays, so
/// merging never makes an entry slower; an entry with a verified result beats one without. The device's
/// peak is the most recently measured one. `sources` name the tables in errors.
TuningTable merge_tables(const std::vector<TuningTable>& tables, const std::vector<std::string>& sources);

}  // namespace gemmtune
