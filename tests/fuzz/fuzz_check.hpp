// Shared by the fuzz targets: what every refusal must look like. A target that finds a violation aborts, which
// libFuzzer (and the corpus replay) reports as a crash with the input that caused it.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace gemmtune::fuzz {

[[noreturn]] inline void fail(const std::string& why) {
  std::fprintf(stderr, "fuzz invariant broken: %s\n", why.c_str());
  std::abort();
}

/// A refusal is one line that starts with the argument or file it is about, and the documented exit code.
inline void check_refusal(const Error& e, std::string_view names, ExitCode expected) {
  const std::string message = e.what();
  if (message.empty()) fail("empty error message");
  if (message.find('\n') != std::string::npos || message.find('\r') != std::string::npos)
    fail("multi-line error: " + message);
  if (message.rfind(names, 0) != 0) fail("error does not start with '" + std::string(names) + "': " + message);
  if (e.code() != expected) fail("exit code " + std::to_string(int(e.code())) + " for: " + message);
}

}  // namespace gemmtune::fuzz
