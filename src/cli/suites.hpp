// Built-in shape suites (configs/shapes/NAME.txt, compiled in so the binary works from any folder).
#pragma once

#include <string>
#include <vector>

#include "core/shape_request.hpp"

namespace gemmtune {

/// The suites' names, sorted.
std::vector<std::string> suite_names();

/// The suite's shapes; an unknown name is a usage error listing the known ones.
std::vector<ShapeRequest> load_suite(const std::string& name);

}  // namespace gemmtune
