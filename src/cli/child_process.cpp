#include "cli/child_process.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

#include "core/error.hpp"

namespace gemmtune {

namespace {
std::atomic<int> g_signal{0};
extern "C" void remember_signal(int sig) { g_signal.store(sig); }
struct sigaction g_old_int, g_old_term;
}  // namespace

pid_t spawn_self(const std::vector<std::string>& args, const std::string& what) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw Error(ExitCode::device_fault, what + ": fork failed: " + std::strerror(errno));
  if (pid == 0) {
    ::execv("/proc/self/exe", argv.data());
    std::_Exit(127);
  }
  return pid;
}

SignalForwarding::SignalForwarding() {
  g_signal.store(0);
  struct sigaction sa {};
  sa.sa_handler = remember_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &g_old_int);
  sigaction(SIGTERM, &sa, &g_old_term);
}

SignalForwarding::~SignalForwarding() {
  sigaction(SIGINT, &g_old_int, nullptr);
  sigaction(SIGTERM, &g_old_term, nullptr);
}

int SignalForwarding::pending() const { return g_signal.load(); }

int exit_code_of(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }

}  // namespace gemmtune
