#!/usr/bin/env python3
"""The tuner's choice holds across runs: two identical runs pick winners whose head-to-head times differ by no more
than the noise the runs measured. Run alone (RUN_SERIAL in tests/CMakeLists.txt): on this 2-core machine another
test's load during one run's finals moves its measured margin past its noise band, which tests the machine's load,
not the choice (a clean clone's suite saw a 12.9 % spread against a 10.3 % band once, run beside other tests)."""
import json
import os
import statistics
import subprocess
import tempfile
import unittest

BIN = os.path.abspath(os.environ.get("GEMMTUNE_BIN", "build/gemmtune"))


def table(path):
    with open(path) as f:
        return json.load(f)


class NoiseBand(unittest.TestCase):
    def test_two_identical_runs_pick_winners_within_the_noise_band(self):
        # The property is about the choice, not the machine: if the two runs pick different winners, the two are
        # timed head to head (bench, interleaved, so drift in the machine's load hits both alike) and must differ by
        # no more than the noise the runs measured. Comparing the runs' own medians would test the machine's load.
        # Both runs screen the whole set: with 39 candidates in 20 s, a cold shader cache screened 11 and a warm one
        # 35 (1.15 and 0.38 s a config), so two runs compared different parts of the space, not their choices.
        shape = "64x64x512"
        with tempfile.TemporaryDirectory() as d:
            winners, bands = [], []
            for i in range(2):
                path = os.path.join(d, f"run{i}.json")
                p = subprocess.run([BIN, "--shape", shape, "--kernels", "tiled_f32_bm64_bn64_bk8_tm[48]_tn[48]",
                                    "--budget", "20", "--samples", "10", "--out", path],
                                   capture_output=True, text=True, timeout=600)
                self.assertEqual(p.returncode, 0, p.stderr)
                e = table(path)["entries"][0]
                self.assertEqual(e["candidates"]["evaluated"], 4, e["candidates"])
                self.assertEqual(e["candidates"]["skipped"], 0, e["candidates"])
                winners.append(e["best"]["name"])
                bands.append(max(e["noise_band"], 2 * e["best"]["cv"], 2 * (e["runner_up"] or e["best"])["cv"]))
            if winners[0] == winners[1]:
                return
            rounds = {w: [] for w in winners}
            for r in range(3):
                for w in (winners if r % 2 == 0 else winners[::-1]):
                    p = subprocess.run([BIN, "bench", "--config", w, "--shape", shape, "--samples", "10", "--json"],
                                       capture_output=True, text=True, timeout=300)
                    self.assertEqual(p.returncode, 0, p.stderr)
                    result = json.loads(p.stdout)["results"][0]
                    self.assertEqual(result["disposition"], "passed")
                    rounds[w].append(result["median_us"])
                    bands.append(2 * result["cv"])
            medians = [statistics.median(rounds[w]) for w in winners]
            spread = abs(medians[0] - medians[1]) / min(medians)
            self.assertLessEqual(spread, max(bands), (winners, rounds, bands))


if __name__ == "__main__":
    unittest.main(verbosity=2)
