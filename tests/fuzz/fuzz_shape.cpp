// Fuzz target: the command-line value parsers (shapes, shape lists, durations, dtype lists). The first byte picks
// the parser, the rest is the argument. Accepted shapes must round-trip through to_string; refusals are one line.
#include <cstddef>
#include <cstdint>

#include "core/problem.hpp"
#include "fuzz_check.hpp"

using namespace gemmtune;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    switch (data[0] % 4) {
      case 0: {
        const Shape s = parse_shape(text);
        for (uint64_t d : {s.m, s.n, s.k, s.batch}) {
          if (d < 1 || d > kMaxDimension) fuzz::fail("accepted dimension out of range in '" + escaped(text) + "'");
        }
        if (!(parse_shape(s.to_string()) == s)) fuzz::fail("shape does not round-trip: '" + escaped(text) + "'");
        break;
      }
      case 1: {
        const std::vector<Shape> list = parse_shape_list(text);
        if (list.empty()) fuzz::fail("empty shape list accepted: '" + escaped(text) + "'");
        break;
      }
      case 2: {
        const double s = parse_seconds(text, "--budget");
        if (!(s >= 0.0) || s > 1e9) fuzz::fail("duration out of range accepted: '" + escaped(text) + "'");
        break;
      }
      default: {
        if (parse_dtype_list(text).empty()) fuzz::fail("empty dtype list accepted: '" + escaped(text) + "'");
        break;
      }
    }
  } catch (const Error& e) {
    const int which = data[0] % 4;
    fuzz::check_refusal(e, which == 2 ? "--budget" : which == 3 ? "--dtype" : "--shape", ExitCode::usage);
  }
  return 0;
}
