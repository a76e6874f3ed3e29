// Search-space files (configs/spaces/*.json): for each variant, the values each parameter takes. The default
// (configs/spaces/default.json) is built into the binary; `--space FILE` replaces it.
#pragma once

#include <string>
#include <vector>

#include "kernels/kernel_def.hpp"

namespace gemmtune {

/// The built-in default space file's text.
const std::string& default_space_text();

/// Families restricted to a space file's values. `source` names the file in errors: malformed JSON is
/// "FILE:LINE:COL: reason"; an unknown variant or parameter, an empty list or a value the variant does not
/// support is "FILE: variants.NAME.PARAM: reason"; all exit 2. A variant the file leaves out keeps its values.
std::vector<KernelFamily> apply_space(const std::string& text, const std::string& source,
                                      const std::vector<const KernelFamily*>& families);

}  // namespace gemmtune
