// Work over the rows of a host matrix split across the host's cores: the operands and the reference of a large
// problem (2048x14336x4096 and up) would otherwise take seconds of the tuning budget on one core.
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace gemmtune {

/// Calls part(begin, end) over [0, count) in contiguous chunks of at least `least` items, one chunk a core, the
/// first on the calling thread. Which items a chunk holds never changes a result: callers make each item alone.
template <typename Fn>
void parallel_chunks(uint64_t count, uint64_t least, Fn&& part) {
  const uint64_t cores = std::max(1u, std::thread::hardware_concurrency());
  const uint64_t threads = std::max<uint64_t>(1, std::min(cores, count / std::max<uint64_t>(1, least)));
  const uint64_t chunk = (count + threads - 1) / threads;
  std::vector<std::thread> pool;
  for (uint64_t begin = chunk; begin < count; begin += chunk)
    pool.emplace_back(part, begin, std::min(count, begin + chunk));
  part(uint64_t(0), std::min(count, chunk));
  for (std::thread& t : pool) t.join();
}

}  // namespace gemmtune
