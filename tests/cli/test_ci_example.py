#!/usr/bin/env python3
"""scripts/ci-perf-example.sh end to end on lavapipe: passes against a baseline it matches, fails (exit 1) against
one that was much faster with a kernel this build no longer has, clears one whose slowdown this device does not
reproduce on a rerun of the same kernel, and refuses to run without a baseline (exit 2)."""
import json
import os
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "ci-perf-example.sh")


class CiExample(unittest.TestCase):
    def test_pass_fail_and_missing_baseline(self):
        with tempfile.TemporaryDirectory() as d:
            suite = os.path.join(d, "suite.txt")
            with open(suite, "w") as f:
                f.write("decode 4x16x16\n")
            out = os.path.join(d, "run")
            env = dict(os.environ, GEMMTUNE_BIN=os.environ.get("GEMMTUNE_BIN", os.path.join(ROOT, "build", "gemmtune")))
            args = ["bash", SCRIPT, "--suite", suite, "--out-dir", out, "--budget", "2s"]
            p = subprocess.run(args + ["--baseline", os.path.join(d, "none.json")], capture_output=True, text=True, env=env)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn("no baseline", p.stderr)
            self.assertFalse(os.path.exists(os.path.join(out, "table.json")))  # refused before any tuning
            first = os.path.join(d, "first.json")
            subprocess.run([env["GEMMTUNE_BIN"], "--shape", "4x16x16", "--budget", "2s", "--out", first], check=True,
                           capture_output=True)
            with open(first) as f:
                measured = json.load(f)
            # A baseline with the same results passes (a 1000 % threshold absorbs lavapipe's run-to-run noise)...
            same = os.path.join(d, "same.json")
            with open(same, "w") as f:
                json.dump(measured, f)
            p = subprocess.run(args + ["--baseline", same, "--threshold", "1000%"], capture_output=True, text=True, env=env)
            self.assertEqual(p.returncode, 0, p.stderr + p.stdout)
            self.assertTrue(os.path.exists(os.path.join(out, "compare.md")))
            self.assertTrue(os.path.exists(os.path.join(out, "compare.xml")))
            # ...one 100x faster fails.
            for e in measured["entries"]:
                e["best"]["median_us"] /= 100.0
                e["best"]["cv"] = 0.0
                if "samples_us" in e["best"]:  # every sample 100x faster too
                    e["best"]["samples_us"] = [v / 100.0 for v in e["best"]["samples_us"]]
            faster = os.path.join(d, "faster.json")
            with open(faster, "w") as f:
                json.dump(measured, f)
            # The same kernels on the same driver: the rerun times both sides alike and the "slowdown" is not borne
            # out (300 %: the two tunes may have chosen different configs, which lavapipe times up to 2x apart).
            p = subprocess.run(args + ["--baseline", faster, "--threshold", "300%"], capture_output=True, text=True,
                               env=env)
            self.assertEqual(p.returncode, 0, p.stderr + p.stdout)
            self.assertIn("rerun", p.stdout)
            with open(os.path.join(out, "compare.md")) as f:
                self.assertIn("rerun", f.read())  # the reports are of the same, rerun comparison
            # Without the rerun it fails; and with a kernel that has changed since the baseline, the rerun cannot
            # time the old one, so the regression stands.
            p = subprocess.run(args + ["--baseline", faster, "--no-rerun"], capture_output=True, text=True, env=env)
            self.assertEqual(p.returncode, 1, p.stderr + p.stdout)
            for e in measured["entries"]:
                e["best"]["kernel_hash"] = "fnv1a64:0123456789abcdef"
            with open(faster, "w") as f:
                json.dump(measured, f)
            p = subprocess.run(args + ["--baseline", faster], capture_output=True, text=True, env=env)
            self.assertEqual(p.returncode, 1, p.stderr + p.stdout)
            self.assertIn("regressed", p.stdout)
            self.assertIn("not rerun", p.stdout)
            with open(os.path.join(out, "compare.xml")) as f:
                self.assertIn("failure", f.read())


if __name__ == "__main__":
    unittest.main(verbosity=2)
