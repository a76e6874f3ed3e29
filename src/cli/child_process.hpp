// Child gemmtune processes (--isolate's watched worker, --devices' per-device workers): spawning this same
// binary, and forwarding SIGINT/SIGTERM to the children while the parent waits.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace gemmtune {

/// Starts this executable with `args` (args[0] is the program name); `what` names the caller in errors.
pid_t spawn_self(const std::vector<std::string>& args, const std::string& what);

/// While alive, SIGINT and SIGTERM are recorded instead of ending the process (restored at destruction).
class SignalForwarding {
 public:
  SignalForwarding();
  ~SignalForwarding();
  SignalForwarding(const SignalForwarding&) = delete;
  SignalForwarding& operator=(const SignalForwarding&) = delete;
  /// The signal received and not yet forwarded, or 0.
  int pending() const;
};

/// The exit code a child's wait status stands for: its exit code, or -1 when a signal ended it.
int exit_code_of(int status);

}  // namespace gemmtune
