// `gemmtune report`: tuning tables as one self-contained HTML page (inline CSS, SVG and script; no network).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "report/anchors.hpp"
#include "report/table.hpp"

namespace gemmtune {

struct NamedTable {
  std::string path;
  TuningTable table;
};

/// Per table and dtype: achieved TFLOP/s per shape for the best config of each variant (bars), a roofline
/// (the device's measured ceilings where the table has a peak, each entry placed by arithmetic intensity) and a
/// sortable table of entries with runner-up, margin and speed-up over the naive baseline.
/// `colors`: each variant's bar colour (its kernel family's; the CLI passes them, the report needs no GPU layer);
/// a variant not in it gets a neutral one. `anchors`: other libraries' times (`--anchor`), drawn beside each
/// matching entry's bars and listed in its row with their time over gemmtune's. Rates and times print in units
/// chosen by magnitude; the chosen config's bar is marked.
std::string html_report(const std::vector<NamedTable>& tables, const std::map<std::string, std::string>& colors = {},
                        const std::vector<Anchor>& anchors = {});

}  // namespace gemmtune
