// What `gemmtune tune` prints on stdout: a table per problem for people (aligned, with units, colour on a
// terminal) or, with --json, one JSON summary at the end for machines. Logs go to stderr, never here.
#pragma once

#include <nlohmann/json.hpp>

#include <set>
#include <string>

#include "tuner/tuner.hpp"

namespace gemmtune {

/// Colour only when stdout is a terminal, --no-color is not given and NO_COLOR is unset or empty
/// (https://no-color.org); never with --json.
bool use_color(bool no_color_flag, bool json);

/// "MxNxK dtype layout[ alpha .. beta ..][ epilogue][ mode]": a problem in logs and tables.
std::string describe(const GemmProblem& p);

/// The command line that reruns exactly one config on exactly this operation.
std::string rerun_command(const GemmProblem& p, const std::string& config, bool cold);

/// The per-problem table: finalists and the fastest screened configs, best, runner-up, baseline, rerun line.
/// `said`: the "variant: not applicable: reason" lines printed so far in this run; each is printed once a run.
/// `shape_name`: the shapes-file or suite line's name ("bert-b1-qkv"), printed before the problem; may be empty.
void print_result(const TuneResult& r, const std::string& shape_name, const std::string& device_name, bool cold,
                  bool color, std::set<std::string>& said);

/// The best against the baseline in words: "the best is 7.7x faster", or where the baseline measured faster (tiny
/// problems, launch-bound), "the best is 5.0x slower than the baseline", never a speed-up below 1.
std::string baseline_comparison(double baseline_us, double best_us);
/// The runner-up against the winner in words, with the noise band: "runner-up 3.2 % slower, noise band 5.0 %", or
/// where it measured faster and lost the tie rule, "runner-up measured 57.2 % faster, inside the noise band of
/// 310.8 %: a tie, the config with fewer resources wins".
std::string runner_up_comparison(double margin, double noise_band, bool tie);
/// Why there is no second finalist to compare with the best: `cut` others were cut after their first sample.
std::string cut_finalists_note(size_t cut);

/// One problem of the --json summary.
nlohmann::ordered_json result_summary(const TuneResult& r, bool cold);

}  // namespace gemmtune
