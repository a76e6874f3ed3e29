// The console's comparisons in words (cli/tune_output.hpp): never a speed-up below 1, never a negative margin.
#include <gtest/gtest.h>

#include "cli/tune_output.hpp"

namespace gemmtune {

TEST(TuneOutput, TheBaselineComparisonSaysSlowerRatherThanASpeedUpBelowOne) {
  EXPECT_EQ(baseline_comparison(770.0, 100.0), "the best is 7.7x faster");
  EXPECT_EQ(baseline_comparison(100.0, 100.0), "the best is 1.0x faster");
  EXPECT_EQ(baseline_comparison(20.0, 100.0), "the best is 5.0x slower than the baseline");
}

TEST(TuneOutput, ARunnerUpThatMeasuredFasterIsSaidToBeAndWhereItStandsToTheNoiseBand) {
  EXPECT_EQ(runner_up_comparison(0.032, 0.05, false), "runner-up 3.2 % slower, noise band 5.0 %");
  EXPECT_EQ(runner_up_comparison(0.01, 0.05, true),
            "runner-up 1.0 % slower, noise band 5.0 %: a tie, the config with fewer resources wins");
  EXPECT_EQ(runner_up_comparison(-0.572, 3.108, true),
            "runner-up measured 57.2 % faster, inside the noise band of 310.8 %: a tie, the config with fewer "
            "resources wins");
  EXPECT_EQ(runner_up_comparison(-0.2, 0.1, false),
            "runner-up measured 20.0 % faster, outside the noise band of 10.0 %");
}

TEST(TuneOutput, FinalistsCutAfterOneSampleAreSaidToBeWhereNoneIsLeftToCompare) {
  EXPECT_EQ(cut_finalists_note(1),
            "the other finalist was cut after one sample (--cut times the best's first or slower): none to compare "
            "with the best");
  EXPECT_EQ(cut_finalists_note(2).substr(0, 35), "the other 2 finalists were cut afte");
}

}  // namespace gemmtune
