// The live status line of a tuning run on a terminal: redrawn at least every second in every phase (reference,
// screening, finals, baseline, writing), with the problem's time left against its budget. Off a terminal, each
// phase is logged once instead.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace gemmtune {

class LiveLine {
 public:
  /// `index` is the problem's place in the run ("[1/3]"), `problem` names it ("1024x768x3072 f32 nn"), `budget_s`
  /// is its whole time.
  LiveLine(bool live, std::string index, std::string problem, double budget_s);
  ~LiveLine();  ///< stops the redraws and clears the line
  LiveLine(const LiveLine&) = delete;
  LiveLine& operator=(const LiveLine&) = delete;

  /// A new phase ("screening", "finals", ...): drawn at once; logged once where there is no terminal.
  void phase(const std::string& name, const std::string& detail = "");
  /// Progress within the phase ("3/789 screened, best ..."): drawn at once, never logged.
  void detail(const std::string& text);

 private:
  void draw_locked();
  const bool live_;
  const std::string index_, problem_;
  const double budget_s_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::string phase_ = "starting", detail_;
  std::thread ticker_;  // last: started once the rest is set up
};

}  // namespace gemmtune
