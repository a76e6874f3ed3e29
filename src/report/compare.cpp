#include "report/compare.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/error.hpp"
#include "core/measurement.hpp"
#include "report/markup.hpp"
#include "report/rank_test.hpp"

namespace gemmtune {

using json = nlohmann::json;

namespace {
std::string readable_key(const TableEntry& e) {
  std::string s = std::to_string(e.m) + "x" + std::to_string(e.n) + "x" + std::to_string(e.k);
  if (e.batch != 1) s += "x" + std::to_string(e.batch);
  s += " " + e.dtype + " " + e.layout;
  if (e.alpha != 1.0 || e.beta != 0.0) s += " alpha " + json(e.alpha).dump() + " beta " + json(e.beta).dump();
  if (e.bias) s += " bias";
  if (e.activation != "none") s += " " + e.activation;
  if (e.mode != "fast") s += " " + e.mode;
  if (e.cold) s += " cold";
  return s;
}

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", 100.0 * fraction);
  return buf;
}

/// "12.34", or "-" for a side without a verified result.
std::string us_text(double us) {
  if (us <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", us);
  return buf;
}

/// What decided a change: "p 0.0002, rank test", "noise 4.0%" (a table without samples), "noise 4.0%, too few
/// samples to rank"; then what a rerun found.
std::string evidence_text(const EntryComparison& e) {
  std::string text = e.evidence;
  if (e.evidence == "rank test") {
    char buf[64];
    std::snprintf(buf, sizeof buf, "p %.2g, rank test", e.p_value);
    text = buf;
  } else if (e.evidence.rfind("noise band", 0) == 0) {
    text = "noise " + percent(e.noise).substr(1) + (e.evidence == "noise band" ? "" : ", too few samples to rank");
  }
  return e.rerun.empty() ? text : text + "; " + e.rerun;
}

/// Whether sets of these sizes can reach alpha at all: 3 samples against 3 never do at 0.05.
bool rankable(size_t n1, size_t n2, const CompareOptions& o) { return smallest_rank_test_p(n1, n2) < o.alpha; }

/// Status of a change between two verified results: beyond the threshold, and real by the samples' rank test
/// (or, where a table has no samples, beyond the noise band).
void judge(EntryComparison& r, const ConfigResult& b, const ConfigResult& n, const CompareOptions& o) {
  r.slowdown = r.new_us / r.base_us - 1.0;
  r.noise = o.noise_factor * std::max(b.cv, n.cv);
  r.status = "same";
  if (std::abs(r.slowdown) <= o.threshold) return;
  const bool slower = r.slowdown > 0;
  const bool sampled = !b.samples_us.empty() && !n.samples_us.empty();
  if (!sampled || !rankable(n.samples_us.size(), b.samples_us.size(), o)) {
    // No samples (an older table), or too few for any order of them to reach alpha (a screened result's one).
    r.evidence = sampled ? "noise band, too few samples" : "noise band";
    if (std::abs(r.slowdown) > r.noise) r.status = slower ? "regressed" : "faster";
    return;
  }
  r.evidence = "rank test";
  r.p_value = slower ? rank_test_greater(n.samples_us, b.samples_us) : rank_test_greater(b.samples_us, n.samples_us);
  if (r.p_value < o.alpha) r.status = slower ? "regressed" : "faster";
}

/// The value a quarter of the way up the sorted values (the lower quartile; 0 for none).
double lower_quartile(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[(v.size() - 1) / 4];
}
}  // namespace

void apply_rerun(EntryComparison& r, const Rerun& rerun, const CompareOptions& o) {
  if (!rerun.failure.empty()) {
    r.rerun = "rerun failed: " + rerun.failure;
    return;
  }
  // A loaded machine only adds time to a sample, and on a shared CPU device it adds whole scheduling slices to some
  // samples of either side, which can move a median between them; a real slowdown moves the fast quarter too.
  const double change = std::min(median_of(rerun.new_samples_us) / median_of(rerun.base_samples_us),
                                 lower_quartile(rerun.new_samples_us) / lower_quartile(rerun.base_samples_us)) -
                        1.0;
  const bool enough = rankable(rerun.new_samples_us.size(), rerun.base_samples_us.size(), o);
  const double p = rank_test_greater(rerun.new_samples_us, rerun.base_samples_us);
  char text[96];
  std::snprintf(text, sizeof text, "rerun %s, p %.2g (%zu and %zu samples)", percent(change).c_str(), p,
                rerun.base_samples_us.size(), rerun.new_samples_us.size());
  r.rerun = text;
  if (!(change > o.threshold && enough && p < o.alpha)) r.status = "same";  // not borne out on this device
}

bool Comparison::regressed() const {
  return std::any_of(entries.begin(), entries.end(),
                     [](const EntryComparison& e) { return e.status == "regressed" || e.status == "lost"; });
}

Comparison compare_tables(const TuningTable& base, const TuningTable& fresh, const CompareOptions& o) {
  Comparison c;
  c.base_device = base.device.name + " (driver " + base.device.driver_version + ")";
  c.new_device = fresh.device.name + " (driver " + fresh.device.driver_version + ")";
  c.device_mismatch = base.device.name != fresh.device.name || base.device.vendor_id != fresh.device.vendor_id ||
                      base.device.device_id != fresh.device.device_id;
  for (size_t i = 0; i < base.entries.size(); ++i) {
    const TableEntry& b = base.entries[i];
    EntryComparison r;
    r.key = readable_key(b);
    r.base_index = i;
    auto n =
        std::find_if(fresh.entries.begin(), fresh.entries.end(), [&](const TableEntry& e) { return e.same_key(b); });
    if (n != fresh.entries.end()) r.new_index = size_t(n - fresh.entries.begin());
    if (b.best) {
      r.base_config = b.best->name;
      r.base_us = b.best->median_us;
    }
    if (n == fresh.entries.end()) {
      r.status = "missing";
    } else if (!n->best) {
      r.status = b.best ? "lost" : "same";
    } else {
      r.new_config = n->best->name;
      r.new_us = n->best->median_us;
      if (!b.best) {
        r.status = "faster";  // nothing verified before
      } else {
        judge(r, *b.best, *n->best, o);
      }
    }
    c.entries.push_back(r);
  }
  for (size_t i = 0; i < fresh.entries.size(); ++i) {
    const TableEntry& n = fresh.entries[i];
    const bool in_base =
        std::any_of(base.entries.begin(), base.entries.end(), [&](const TableEntry& e) { return e.same_key(n); });
    if (in_base) continue;
    EntryComparison r;
    r.key = readable_key(n);
    r.new_index = i;
    r.status = "new";
    if (n.best) {
      r.new_config = n.best->name;
      r.new_us = n.best->median_us;
    }
    c.entries.push_back(r);
  }
  return c;
}

std::string render_comparison(const Comparison& c, const std::string& format, const CompareOptions& o) {
  std::string out;
  size_t regressions = 0;
  for (const EntryComparison& e : c.entries) regressions += e.status == "regressed" || e.status == "lost";
  if (format == "json") {
    json rows = json::array();
    for (const EntryComparison& e : c.entries) {
      rows.push_back({{"key", e.key},
                      {"status", e.status},
                      {"base_config", e.base_config},
                      {"new_config", e.new_config},
                      {"base_us", e.base_us},
                      {"new_us", e.new_us},
                      {"slowdown", e.slowdown},
                      {"noise", e.noise},
                      {"evidence", e.evidence},
                      {"p_value", e.p_value >= 0 ? json(e.p_value) : json(nullptr)},
                      {"rerun", e.rerun}});
    }
    return json{{"base_device", c.base_device}, {"new_device", c.new_device}, {"device_mismatch", c.device_mismatch},
                {"threshold", o.threshold},     {"regressions", regressions}, {"entries", rows}}
               .dump(2) +
           "\n";
  }
  if (format == "junit") {
    out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"gemmtune compare\" tests=\"" +
          std::to_string(c.entries.size()) + "\" failures=\"" + std::to_string(regressions) + "\">\n";
    for (const EntryComparison& e : c.entries) {
      out += "  <testcase classname=\"gemmtune\" name=\"" + markup_escaped(e.key) + "\">";
      if (e.status == "regressed" || e.status == "lost") {
        out +=
            "<failure message=\"" +
            markup_escaped(e.status + " " + percent(e.slowdown) + " (" + e.base_config + " " + json(e.base_us).dump() +
                           " us -> " + e.new_config + " " + json(e.new_us).dump() + " us; " + evidence_text(e) + ")") +
            "\"/>";
      } else if (e.status == "missing" || e.status == "new") {
        out += "<skipped message=\"" + e.status + "\"/>";
      }
      out += "</testcase>\n";
    }
    return out + "</testsuite>\n";
  }
  const bool md = format == "md";
  char head[512];
  std::snprintf(head, sizeof head,
                "%sbase: %s, new: %s; threshold %.1f %%, rank test p < %.2g (without samples: noise %.0f x CV): %zu "
                "regression%s\n\n",
                md ? "**gemmtune compare** " : "", c.base_device.c_str(), c.new_device.c_str(), 100.0 * o.threshold,
                o.alpha, o.noise_factor, regressions, regressions == 1 ? "" : "s");
  out = head;
  if (md) out += "| entry | status | base us | new us | change | evidence |\n|---|---|---:|---:|---:|---|\n";
  for (const EntryComparison& e : c.entries) {
    char line[512];
    const std::string change = e.base_us > 0 && e.new_us > 0 ? percent(e.slowdown) : "-";
    const std::string evidence = evidence_text(e);
    if (md) {
      const char* bold = e.status == "regressed" || e.status == "lost" ? "**" : "";
      std::snprintf(line, sizeof line, "| %s | %s%s%s | %s | %s | %s | %s |\n", e.key.c_str(), bold, e.status.c_str(),
                    bold, us_text(e.base_us).c_str(), us_text(e.new_us).c_str(), change.c_str(), evidence.c_str());
    } else {
      std::snprintf(line, sizeof line, "%-10s %-40s %10s -> %10s us %8s (%s)\n", e.status.c_str(), e.key.c_str(),
                    us_text(e.base_us).c_str(), us_text(e.new_us).c_str(), change.c_str(),
                    evidence.empty() ? "-" : evidence.c_str());
    }
    out += line;
  }
  return out;
}

double parse_percent(const std::string& text, const std::string& option) {
  std::string number = text;
  if (!number.empty() && number.back() == '%') number.pop_back();
  size_t used = 0;
  double v = -1.0;
  try {
    v = std::stod(number, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (number.empty() || used != number.size() || !(v >= 0.0 && v <= 1000.0) ||
      !std::isdigit(static_cast<unsigned char>(number[0]))) {
    throw usage_error(option, text, "expected a percentage such as 5% or 2.5");
  }
  return v / 100.0;
}

}  // namespace gemmtune
