// Elapsed wall-clock time, for the journal's cost fields and the build workers' timeouts.
#pragma once

#include <chrono>

namespace gemmtune {

/// Milliseconds from `start` to now on the steady clock.
inline double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace gemmtune
