// Errors that carry their exit code. Foreseeable refusals and failures are thrown as Error with context
// (the argument or file, the value, the reason); main() maps them to the documented exit codes.
#pragma once

#include <stdexcept>
#include <string>

namespace gemmtune {

/// The documented process exit codes.
enum class ExitCode : int {
  ok = 0,
  unverified = 1,     ///< some entry has no verified candidate
  usage = 2,          ///< bad input or usage
  unsupported = 3,    ///< not supported on this device
  device_fault = 4,   ///< device lost, out of memory, timeout
  io = 5,             ///< file I/O error
  interrupted = 130,  ///< SIGINT or SIGTERM: the table holds every finished entry
};

class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

/// "LINE:COL" (1-based) of a byte offset in a text, for errors about files.
inline std::string text_position(const std::string& text, size_t byte) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return std::to_string(line) + ":" + std::to_string(col);
}

/// Printable ASCII as is, every other byte as \xHH, so a message stays one readable line.
inline std::string escaped(const std::string& value) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned char c : value) {
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += char(c);
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

/// Bad input: `what` names the argument or file, `value` the offending value, `why` the reason.
inline Error usage_error(const std::string& what, const std::string& value, const std::string& why) {
  return Error(ExitCode::usage, what + ": '" + escaped(value) + "': " + why);
}

}  // namespace gemmtune
