#include "cli/live_line.hpp"

#include <spdlog/spdlog.h>

#include <cstdio>

namespace gemmtune {

LiveLine::LiveLine(bool live, std::string index, std::string problem, double budget_s)
    : live_(live), index_(std::move(index)), problem_(std::move(problem)), budget_s_(budget_s) {
  if (!live_) return;
  ticker_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stop_) {
      draw_locked();
      wake_.wait_for(lock, std::chrono::milliseconds(500));  // twice a second: the clock never looks stuck
    }
  });
}

LiveLine::~LiveLine() {
  if (!live_) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  ticker_.join();
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
}

void LiveLine::phase(const std::string& name, const std::string& detail) {
  std::lock_guard<std::mutex> lock(mutex_);
  // Logged lines start with the problem, not "[": a log reader counts "[j/m]" lines as screened candidates.
  if (!live_ && name != phase_) spdlog::info("{}: {}{}", problem_, name, detail.empty() ? "" : " (" + detail + ")");
  phase_ = name;
  detail_ = detail;
  if (live_) draw_locked();
}

void LiveLine::detail(const std::string& text) {
  std::lock_guard<std::mutex> lock(mutex_);
  detail_ = text;
  if (live_) draw_locked();
}

void LiveLine::draw_locked() {
  const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double left = budget_s_ - spent;
  char clock[96];
  if (left >= 0) {
    std::snprintf(clock, sizeof clock, "%.0f s of %.0f, ~%.0f s left", spent, budget_s_, left);
  } else {  // the last screened config or the one finalist that always runs
    std::snprintf(clock, sizeof clock, "%.0f s of %.0f, finishing", spent, budget_s_);
  }
  std::fprintf(stderr, "\r\033[K%s %s: %s%s%s; %s", index_.c_str(), problem_.c_str(), phase_.c_str(),
               detail_.empty() ? "" : " ", detail_.c_str(), clock);
  std::fflush(stderr);
}

}  // namespace gemmtune
