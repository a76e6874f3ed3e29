// `--isolate SECONDS`: run the sweep in a watched child process (see isolate.cpp).
#pragma once

#include <string>
#include <vector>

namespace gemmtune {

/// Runs `child_args` (argv of a gemmtune tune, without --isolate) in child processes until the sweep ends,
/// recording configs that hang past `limit_s` as timed_out and configs whose process died as crashed in
/// `journal`. Returns the last child's exit code; SIGINT/SIGTERM are forwarded.
int run_isolated(const std::vector<std::string>& child_args, double limit_s, const std::string& journal);

}  // namespace gemmtune
