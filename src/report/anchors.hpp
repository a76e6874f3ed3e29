// Another library's times for the problems of a table (`gemmtune report --anchor FILE`): the JSON lines that
// .gpu-kit/cublas_anchor.py and ggml_anchor.sh print, one measurement a line. No GPU.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "report/table.hpp"

namespace gemmtune {

struct Anchor {
  std::string label;          ///< "cublas", "ggml-vulkan NV_coopmat2": lib, and its "matrix" mode where given
  std::string dtype;          ///< the inputs' type, as tables name it
  std::string layout = "nn";  ///< cublas_anchor.py's lines without --layouts carry none: nn
  uint64_t m = 0, n = 0, k = 0;
  bool cold = false;
  double us = 0;
  std::string device;  ///< the tables it belongs to: a substring of their device's name (empty: every table)
};

/// Every measurement in `path`: each non-blank line a JSON object with "lib", "dtype", "M", "N", "K" and "us" (a
/// positive time), optionally "layout", "cold" and "matrix". A line that is not one is an Error (exit 2) naming
/// the file, the line and the reason; an unreadable file is exit 5.
std::vector<Anchor> load_anchors(const std::string& path);

/// `--anchor [DEVICE=]FILE`: the file's measurements, each belonging to the tables whose device name contains
/// DEVICE (every table without it: anchor files do not name their device).
std::vector<Anchor> load_anchor_option(const std::string& value);

/// The anchor measurements of entry `e`'s problem (batch 1, same type, layout and L2 state) on a table of
/// `device`, in file order.
std::vector<const Anchor*> anchors_for(const TableEntry& e, const std::string& device,
                                       const std::vector<Anchor>& anchors);

}  // namespace gemmtune
