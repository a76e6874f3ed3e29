// `--isolate SECONDS`: the sweep runs in a child gemmtune process that this one watches through the journal.
// A config whose "begin" line stays the journal's last line for longer than the limit has hung (lavapipe cannot
// report a hang; some drivers have no watchdog): the child is killed, the config recorded as timed_out, and a
// new child resumes. A child that dies inside a config (device lost, driver crash) gets that config recorded as
// crashed, and a new child (a new device) resumes too. The parent does no Vulkan work.
#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "cli/child_process.hpp"
#include "cli/isolate.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "report/journal.hpp"
#include "core/measurement.hpp"

namespace gemmtune {

namespace {

off_t file_size(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? st.st_size : -1;
}

/// The journal's last whole record, if any.
std::optional<JournalRecord> last_record(const std::string& path) {
  std::string text;
  try {
    text = read_file(path);
  } catch (const Error&) {
    return std::nullopt;
  }
  const size_t end = text.rfind('\n');  // a torn tail after it is ignored
  if (end == std::string::npos) return std::nullopt;
  const size_t before = end == 0 ? std::string::npos : text.rfind('\n', end - 1);
  const size_t start = before == std::string::npos ? 0 : before + 1;
  return parse_journal_line(text.substr(start, end - start));
}

void record(const std::string& journal, const JournalRecord& begin, Disposition d, const std::string& detail) {
  JournalRecord r = begin;
  r.phase = "screen";
  r.measured = Measurement{};
  r.measured->disposition = d;
  r.measured->detail = detail;
  AppendOnlyFile(journal, false).append(journal_line(r));
}
}  // namespace

int run_isolated(const std::vector<std::string>& child_args, double limit_s, const std::string& journal) {
  const SignalForwarding forwarding;

  bool resume = false;
  for (const std::string& a : child_args) resume |= a == "--resume";
  for (int attempt = 0; attempt < 10000; ++attempt) {
    std::vector<std::string> args = child_args;
    if (!resume && attempt > 0) args.push_back("--resume");
    const pid_t child = spawn_self(args, "--isolate");
    off_t seen_size = -2;
    auto seen_at = std::chrono::steady_clock::now();
    int status = 0;
    bool killed = false;
    std::optional<JournalRecord> hung;
    while (true) {
      const pid_t done = ::waitpid(child, &status, WNOHANG);
      if (done == child) break;
      if (const int sig = forwarding.pending()) {
        ::kill(child, sig);  // the child writes its table and exits 130
        ::waitpid(child, &status, 0);
        return WIFEXITED(status) ? WEXITSTATUS(status) : static_cast<int>(ExitCode::interrupted);
      }
      const off_t size = file_size(journal);
      const auto now = std::chrono::steady_clock::now();
      if (size != seen_size) {
        seen_size = size;
        seen_at = now;
      } else if (std::chrono::duration<double>(now - seen_at).count() > limit_s) {
        std::optional<JournalRecord> last = last_record(journal);
        if (last && last->phase == "begin") {
          ::kill(child, SIGKILL);
          ::waitpid(child, &status, 0);
          killed = true;
          hung = last;
          break;
        }
        seen_at = now;  // no config in flight (reference, compile of the table): keep waiting
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (killed) {
      spdlog::warn("--isolate: {} ran past {} s: recorded as timed_out, resuming in a new process", hung->config,
                   limit_s);
      record(journal, *hung, Disposition::timed_out, "killed after " + std::to_string(limit_s) + " s (--isolate)");
      continue;
    }
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (code != -1 && code != static_cast<int>(ExitCode::device_fault)) return code;
    std::optional<JournalRecord> last = last_record(journal);
    if (!last || last->phase != "begin") return code == -1 ? static_cast<int>(ExitCode::device_fault) : code;
    const bool signaled = WIFSIGNALED(status);
    const std::string how =
        signaled ? "signal " + std::to_string(WTERMSIG(status)) : "exit " + std::to_string(code) + ", a device fault";
    const Disposition d = signaled ? Disposition::crashed : Disposition::device_lost;
    spdlog::warn("--isolate: the process died in {} ({}): recorded as {}, resuming in a new process with a new device",
                 last->config, how, disposition_name(d));
    record(journal, *last, d, "the process died (" + how + ")");
  }
  throw Error(ExitCode::device_fault, "--isolate: gave up after 10000 restarts");
}

}  // namespace gemmtune
