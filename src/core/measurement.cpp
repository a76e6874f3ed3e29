#include "core/measurement.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gemmtune {

const char* disposition_name(Disposition d) {
  switch (d) {
    case Disposition::passed:
      return "passed";
    case Disposition::incorrect:
      return "incorrect";
    case Disposition::compile_failed:
      return "compile_failed";
    case Disposition::timed_out:
      return "timed_out";
    case Disposition::device_lost:
      return "device_lost";
    case Disposition::crashed:
      return "crashed";
  }
  return "?";
}

std::optional<Disposition> parse_disposition(const std::string& name) {
  for (Disposition d : {Disposition::passed, Disposition::incorrect, Disposition::compile_failed,
                        Disposition::timed_out, Disposition::device_lost, Disposition::crashed}) {
    if (name == disposition_name(d)) return d;
  }
  return std::nullopt;
}

double coefficient_of_variation(const std::vector<double>& v) {
  if (v.size() < 2) return 0.0;
  double mean = 0.0;
  for (double x : v) mean += x;
  mean /= double(v.size());
  if (mean <= 0.0) return 0.0;
  double ss = 0.0;
  for (double x : v) ss += (x - mean) * (x - mean);
  return std::sqrt(ss / double(v.size() - 1)) / mean;
}

std::optional<double> timing_moved(double screen_us, double median_us) {
  if (!(screen_us > 0.0) || !(median_us > 0.0)) return std::nullopt;
  if (std::max(median_us, screen_us) / std::min(median_us, screen_us) <= 1.15) return std::nullopt;
  return median_us / screen_us;
}

std::optional<std::string> timing_moved_note(const Measurement& m) {
  const std::optional<double> moved = timing_moved(m.screen_us, m.median_us);
  if (!moved) return std::nullopt;
  char ratio[32];
  std::snprintf(ratio, sizeof ratio, "%.2f", *moved);
  return std::string("timing moved: the finals' median is ") + ratio + "x the screening run's " +
         time_text(m.screen_us) + " (the device's clocks or heat changed between them); rerun it to see which holds";
}

void Measurement::summarize(double flops) {
  if (samples_us.empty()) return;
  median_us = median_of(samples_us);
  min_us = *std::min_element(samples_us.begin(), samples_us.end());
  cv = coefficient_of_variation(samples_us);
  gflops = median_us > 0.0 ? flops / (median_us * 1e3) : 0.0;
}

std::string time_text(double us) {
  char text[48];
  if (!std::isfinite(us)) {
    std::snprintf(text, sizeof text, "%g us", us);
  } else if (std::fabs(us) < 999.95) {
    std::snprintf(text, sizeof text, "%.1f us", us);
  } else if (std::fabs(us) < 999995.0) {
    std::snprintf(text, sizeof text, "%.2f ms", us / 1e3);
  } else if (std::fabs(us) < 90e6) {
    std::snprintf(text, sizeof text, "%.2f s", us / 1e6);
  } else if (std::fabs(us) < 5400e6) {
    std::snprintf(text, sizeof text, "%.1f min", us / 60e6);
  } else {
    std::snprintf(text, sizeof text, "%.1f h", us / 3600e6);
  }
  return text;
}

double median_of(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace gemmtune
