// Escaping for the markup gemmtune writes (JUnit XML from compare, the HTML report).
#pragma once

#include <string>

namespace gemmtune {

/// Text safe inside XML/HTML elements and double-quoted attributes.
inline std::string markup_escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace gemmtune
