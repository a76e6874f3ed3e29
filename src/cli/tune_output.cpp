#include "cli/tune_output.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace gemmtune {

bool use_color(bool no_color_flag, bool json) {
  const char* no_color = std::getenv("NO_COLOR");
  return !json && !no_color_flag && (no_color == nullptr || *no_color == '\0') && ::isatty(1) != 0;
}

std::string describe(const GemmProblem& p) {
  std::string s = p.shape.to_string() + " " + std::string(dtype_name(p.dtype)) + " " + p.layout.name();
  if (p.alpha != 1.0f || p.beta != 0.0f) s += " alpha " + std::to_string(p.alpha) + " beta " + std::to_string(p.beta);
  // append(), not " " + x: GCC 12 warns falsely (-Wrestrict) on operator+(const char*, string&&).
  if (p.epilogue.name() != "none") s.append(" ").append(p.epilogue.name());
  if (p.mode != Mode::fast) s.append(" ").append(mode_name(p.mode));
  return s;
}

/// The command line that reruns exactly one config on exactly this operation.
std::string rerun_command(const GemmProblem& p, const std::string& config, bool cold) {
  std::string s =
      "gemmtune bench --config " + config + " --shape " + p.shape.to_string() + " --layout " + p.layout.name();
  const ResolvedGemm packed = resolve(GemmProblem{p.shape, p.dtype, 1.0f, 0.0f, p.layout});
  const ResolvedGemm l = resolve(p);
  auto num = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return std::string(buf);
  };
  if (p.alpha != 1.0f) s += " --alpha " + num(p.alpha);
  if (p.beta != 0.0f) s += " --beta " + num(p.beta);
  const ResolvedOperand* ops[3] = {&l.a, &l.b, &l.c};
  const ResolvedOperand* defaults[3] = {&packed.a, &packed.b, &packed.c};
  const char* names[3] = {"a", "b", "c"};
  for (int i = 0; i < 3; ++i) {
    if (ops[i]->ld != defaults[i]->ld) s += std::string(" --ld") + names[i] + " " + std::to_string(ops[i]->ld);
    if (ops[i]->offset != 0) s += std::string(" --offset-") + names[i] + " " + std::to_string(ops[i]->offset);
    if (ops[i]->stride != defaults[i]->stride)
      s += std::string(" --stride-") + names[i] + " " + std::to_string(ops[i]->stride);
  }
  if (p.epilogue.bias)
    s += " --bias" +
         (p.epilogue.bias_offset ? " --bias-offset " + std::to_string(p.epilogue.bias_offset) : std::string());
  if (p.epilogue.activation != Activation::none)
    s += " --activation " + std::string(activation_name(p.epilogue.activation));
  if (p.mode != Mode::fast) s += " --mode " + std::string(mode_name(p.mode));
  if (p.zero_a != 0) s += " --zero-a " + std::to_string(p.zero_a);
  if (p.zero_b != 0) s += " --zero-b " + std::to_string(p.zero_b);
  if (cold) s += " --cold";
  return s;
}

std::string baseline_comparison(double baseline_us, double best_us) {
  char text[96];
  if (baseline_us >= best_us)
    std::snprintf(text, sizeof text, "the best is %.1fx faster", baseline_us / std::max(best_us, 1e-9));
  else
    std::snprintf(text, sizeof text, "the best is %.1fx slower than the baseline",
                  best_us / std::max(baseline_us, 1e-9));
  return text;
}

std::string runner_up_comparison(double margin, double noise_band, bool tie) {
  const char* verdict = tie ? ": a tie, the config with fewer resources wins" : "";
  char text[160];
  if (margin >= 0.0)
    std::snprintf(text, sizeof text, "runner-up %.1f %% slower, noise band %.1f %%%s", 100.0 * margin,
                  100.0 * noise_band, verdict);
  else
    std::snprintf(text, sizeof text, "runner-up measured %.1f %% faster, %s the noise band of %.1f %%%s",
                  -100.0 * margin, -margin <= noise_band ? "inside" : "outside", 100.0 * noise_band, verdict);
  return text;
}

std::string cut_finalists_note(size_t cut) {
  const std::string others =
      cut == 1 ? "the other finalist was" : "the other " + std::to_string(cut) + " finalists were";
  return others + " cut after one sample (--cut times the best's first or slower): none to compare with the best";
}

void print_result(const TuneResult& r, const std::string& shape_name, const std::string& device_name, bool cold,
                  bool color, std::set<std::string>& said) {
  const char* bold = color ? "\033[1m" : "";
  const char* green = color ? "\033[32m" : "";
  const char* red = color ? "\033[31m" : "";
  const char* reset = color ? "\033[0m" : "";
  std::printf("\n%s%s%s%s on %s: %zu evaluated%s, %zu failed, %zu pruned, %zu skipped by the %s; %s, %.1f s%s\n", bold,
              shape_name.empty() ? "" : (shape_name + ": ").c_str(), describe(r.problem).c_str(), reset,
              device_name.c_str(), r.evaluated.size(),
              r.resumed ? (" (" + std::to_string(r.resumed) + " from the journal)").c_str() : "", r.failed(),
              r.pruned.size(), r.skipped, r.interrupted ? "interruption" : "budget", strategy_name(r.strategy),
              r.elapsed_s, r.timestamps ? "" : " (host timing)");
  if (r.skipped > 0 && !r.evaluated.empty() && !r.interrupted) {
    // At this run's screening rate: the budget that would screen the whole space, so the user can size --budget:
    // every config at that rate and finals as long as this run's, in what is left after the baseline's box (at
    // most a tenth) and the finals' smallest reserve.
    const size_t all = r.evaluated.size() + r.skipped;
    const double per = r.screened > 0 ? r.screening_s / double(r.screened) : r.search_s / double(r.evaluated.size());
    const double finals_s = r.finals_s();
    const double whole = (per * double(all) + finals_s) / ((1.0 - kBaselineBoxShare) * (1.0 - kFinalsFloorShare));
    std::printf(
        "  screened %zu of %zu candidates (%.0f %%); at this run's %.2f s a config, --budget %.0f (%s) for this "
        "problem alone would screen them all\n",
        r.evaluated.size(), all, 100.0 * double(r.evaluated.size()) / double(all), per, std::ceil(whole),
        time_text(whole * 1e6).c_str());
  }
  if (r.screened > 0) {
    // The tuner's own speed and where a config's time went (the journal has each config's): builds, the
    // verification, the warm-up that brings the clocks back, the timed batches, and the rest (batch builds the
    // config shared, the journal, the search itself).
    const ScreeningCost& c = r.screening_cost;
    const double n = double(r.screened);
    std::printf(
        "  screening: %zu configs in %.1f s, %.1f a second; a config took %.0f ms: build %.0f, verify %.0f, warm-up "
        "%.0f, timing %.0f, other %.0f\n",
        r.screened, r.screening_s, r.configs_per_s(), c.total_ms / n, c.build_ms / n, c.verify_ms / n, c.warmup_ms / n,
        c.timing_ms / n, std::max(0.0, c.total_ms - c.build_ms - c.verify_ms - c.warmup_ms - c.timing_ms) / n);
  }
  if (!r.evaluated.empty()) {
    // Where the problem's time (all charged to its budget) went: a large problem's operands and reference can take
    // most of a short budget.
    const PreparationTimes& p = r.preparation;
    std::printf(
        "  time: preparation %.2f s (operands %.2f, reference %.2f, uploads %.2f, device check %.2f), screening "
        "%.2f s, finals %.2f s, baseline %.2f s\n",
        r.prepare_s, p.operands_s, p.reference_s, p.uploads_s, p.device_check_s, r.screening_s, r.finals_s(),
        r.baseline_s);
  }
  for (const NotApplicable& n : r.not_applicable) {
    const std::string line = "  " + n.variant + ": not applicable: " + n.reason;
    if (said.insert(line).second) std::printf("%s\n", line.c_str());
  }
  const size_t shown_screened = 5;
  // The rows shown, and the name column as wide as the longest of them.
  std::vector<const EvaluatedConfig*> rows;
  size_t screened = 0;
  for (const EvaluatedConfig& e : r.evaluated) {
    if (!e.finalist && ++screened > shown_screened) break;
    rows.push_back(&e);
  }
  int width = 6;
  for (const EvaluatedConfig* e : rows) width = std::max(width, int(e->name.size()));
  // 8-bit integer products count operations, not floating-point ones.
  const char* rate = is_integer(r.problem.dtype) ? "GOP/s" : "GFLOP/s";
  std::printf("  %-*s %9s %12s %12s %10s  %s\n", width, "config", "samples", "median us", "min us", rate,
              "error / bound");
  for (const EvaluatedConfig* e : rows) {
    const Measurement& m = e->measurement;
    const bool best = e == r.best();
    if (m.disposition != Disposition::passed) {
      std::printf("  %-*s %s%s%s: %s\n", width, e->name.c_str(), red, disposition_name(m.disposition), reset,
                  m.detail.c_str());
      continue;
    }
    const std::string samples = std::to_string(m.samples_us.size()) + "x" + std::to_string(m.runs_per_sample);
    std::printf("%s%s %-*s %9s %12.2f %12.2f %10.2f  %.1e / %.0e%s\n", best ? green : "", best ? "*" : " ", width,
                e->name.c_str(), samples.c_str(), m.median_us, m.min_us, m.gflops, m.error.error, m.error.bound,
                best ? reset : "");
  }
  if (const EvaluatedConfig* best = r.best()) {
    std::printf("  %sbest: %s, %s, %.2f %s%s\n", green, best->name.c_str(),
                time_text(best->measurement.median_us).c_str(), best->measurement.gflops, rate, reset);
    if (const auto note = timing_moved_note(best->measurement)) std::printf("  %s\n", note->c_str());
    if (r.runner_up()) {
      std::printf("  %s\n", runner_up_comparison(r.margin, r.noise_band, r.tie).c_str());
    } else {
      size_t cut = 0;
      for (const EvaluatedConfig& e : r.evaluated) cut += e.finalist && e.measurement.cut;
      if (cut > 0) std::printf("  %s\n", cut_finalists_note(cut).c_str());
    }
    if (r.baseline && r.baseline->measurement.disposition == Disposition::passed) {
      std::printf("  baseline %s: %s; %s\n", r.baseline->name.c_str(),
                  time_text(r.baseline->measurement.median_us).c_str(),
                  baseline_comparison(r.baseline->measurement.median_us, best->measurement.median_us).c_str());
    } else if (r.baseline) {
      std::printf("  baseline %s: %s\n", r.baseline->name.c_str(),
                  disposition_name(r.baseline->measurement.disposition));
    } else if (!r.baseline_skipped.empty()) {
      std::printf("  baseline skipped: %s\n", r.baseline_skipped.c_str());
    }
    std::printf("  rerun: %s\n", rerun_command(r.problem, best->name, cold).c_str());
  } else {
    std::printf("  %sno verified candidate%s\n", red, reset);
  }
  std::fflush(stdout);
}

nlohmann::ordered_json result_summary(const TuneResult& r, bool cold) {
  using json = nlohmann::ordered_json;
  auto config = [&](const EvaluatedConfig* e) -> json {
    if (!e) return nullptr;
    const Measurement& m = e->measurement;
    return {{"name", e->name},
            {"variant", e->family->name},
            {"median_us", m.median_us},
            {"min_us", m.min_us},
            {"gflops", m.gflops},
            {"cv", m.cv},
            {"screen_us", m.screen_us > 0.0 ? json(m.screen_us) : json(nullptr)},
            {"samples", m.samples_us.size()},
            {"error", m.error.error},
            {"bound", m.error.bound}};
  };
  const bool baseline_ok = r.baseline && r.baseline->measurement.disposition == Disposition::passed;
  json not_applicable = json::array();
  for (const NotApplicable& n : r.not_applicable)
    not_applicable.push_back({{"variant", n.variant}, {"reason", n.reason}});
  return {{"problem", describe(r.problem)},
          {"m", r.problem.shape.m},
          {"n", r.problem.shape.n},
          {"k", r.problem.shape.k},
          {"batch", r.problem.shape.batch},
          {"dtype", std::string(dtype_name(r.problem.dtype))},
          {"layout", r.problem.layout.name()},
          {"cold", cold},
          {"best", config(r.best())},
          {"runner_up", config(r.runner_up())},
          {"margin", r.margin},
          {"noise_band", r.noise_band},
          {"tie", r.tie},
          {"baseline_us", baseline_ok ? json(r.baseline->measurement.median_us) : json(nullptr)},
          {"baseline_skipped", r.baseline_skipped},
          {"speedup_over_baseline", baseline_ok && r.best()
                                        ? json(r.baseline->measurement.median_us / r.best()->measurement.median_us)
                                        : json(nullptr)},
          {"evaluated", r.evaluated.size()},
          {"failed", r.failed()},
          {"pruned", r.pruned.size()},
          {"skipped", r.skipped},
          {"configs_per_s", r.configs_per_s()},
          {"not_applicable", not_applicable},
          {"budget_exhausted", r.budget_exhausted},
          {"interrupted", r.interrupted},
          {"seconds", r.elapsed_s},
          {"seconds_by_phase",
           {{"preparation", r.prepare_s},
            {"screening", r.screening_s},
            {"finals", r.finals_s()},
            {"baseline", r.baseline_s}}},
          {"preparation_seconds",
           {{"operands", r.preparation.operands_s},
            {"reference", r.preparation.reference_s},
            {"uploads", r.preparation.uploads_s},
            {"device_check", r.preparation.device_check_s}}},
          {"rerun", r.best() ? json(rerun_command(r.problem, r.best()->name, cold)) : json(nullptr)}};
}

}  // namespace gemmtune
