#!/usr/bin/env python3
"""scripts/search_quality.py on a synthetic folder: a ground truth's journal and two budget runs (table and journal)
of one problem; each run's chosen config scores the optimum over its time in the truth, and the seconds of screening
until a config within 0.95 of the optimum was screened come from the journal's costs in screening order ("-" where
none was). --compact keeps every screened config in order with its samples and cost. --compare times two runs of the
same problems to near the better run's best screening median (final samples do not count)."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "search_quality.py")
PROBLEM = json.dumps({"m": 8, "n": 8, "k": 8, "batch": 1, "dtype": "f32", "layout": "nn"})


def journal(path, rows):
    with open(path + ".journal.jsonl", "w") as f:
        for phase, config, us, cost_ms in rows:
            f.write(json.dumps({"phase": phase, "config": config, "disposition": "passed", "median_us": us,
                                "samples_us": [us], "cost_ms": {"total": cost_ms}, "problem": PROBLEM}) + "\n")
        f.write('{"phase": "screen", "config": "torn')  # a torn last line is skipped


def table(path, best):
    with open(path, "w") as f:
        json.dump({"entries": [{"best": {"name": best, "median_us": 1.0}}]}, f)


class SearchQuality(unittest.TestCase):
    def test_fractions_and_the_seconds_to_near_the_optimum(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "8x8x8_f32_nn")
            # The truth: a 10 us, b 20, c 10.4 (screened), a and c finalists at 10.0 and 10.5.
            journal(p + ".truth.json", [("screen", "a", 10.0, 500), ("screen", "b", 20.0, 100),
                                        ("screen", "c", 10.4, 100), ("final", "a", 10.0, 0), ("final", "c", 10.5, 0)])
            table(p + ".truth.json", "a")
            # Run 1 screens b (1.5 s) then c (0.25 s): c is within 0.95 after 1.75 s; it chose c.
            journal(p + ".adaptive.b5.json", [("screen", "b", 20.0, 1500), ("screen", "c", 10.4, 250)])
            table(p + ".adaptive.b5.json", "c")
            # Run 2 screens b only and chose it: half the optimum, never near it.
            journal(p + ".screen.b5.json", [("screen", "b", 20.0, 2000)])
            table(p + ".screen.b5.json", "b")
            out = subprocess.run([sys.executable, SCRIPT, d], capture_output=True, text=True)
            self.assertEqual(out.returncode, 0, out.stderr)
            rows = {line.split("|")[3].strip(): [c.strip() for c in line.split("|")[1:-1]]
                    for line in out.stdout.splitlines() if line.startswith("| 8x8x8_f32_nn")}
            self.assertEqual(rows["adaptive"][3], "2")  # screened, the torn line not counted
            self.assertEqual(rows["adaptive"][4], "c")
            self.assertEqual(rows["adaptive"][7], f"{10.0 / 10.5:.3f}")
            self.assertEqual(rows["adaptive"][8], "1.8")
            self.assertEqual(rows["screen"][7], "0.500")
            self.assertEqual(rows["screen"][8], "-")

    def test_compact_keeps_the_screening_order_samples_and_costs(self):
        with tempfile.TemporaryDirectory() as d:
            truth = os.path.join(d, "t.json")
            journal(truth, [("screen", "b", 20.0, 100), ("screen", "a", 10.0, 500), ("final", "a", 10.0, 0)])
            out = os.path.join(d, "c.json")
            r = subprocess.run([sys.executable, SCRIPT, "--compact", truth + ".journal.jsonl", out],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            c = json.load(open(out))
            self.assertEqual(c["problem"]["m"], 8)
            self.assertEqual(c["configs"], [["b", True, [20.0], [], 0.1], ["a", True, [10.0], [10.0], 0.5]])

    def test_compare_times_two_runs_to_near_the_better_runs_best(self):
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, "a.json"), os.path.join(d, "b.json")
            # A screens a 20 us config (1 s) then the 10 us one (1 s); B screens the 10.1 us one first (0.5 s) and
            # never the 10 us one: within 0.95 of the better run's best (10 us) B after 0.5 s, A after 2 s; within
            # 0.98 (10.2 us) too.
            journal(a, [("screen", "x", 20.0, 1000), ("screen", "y", 10.0, 1000), ("final", "y", 9.0, 0)])
            journal(b, [("screen", "z", 10.1, 500), ("screen", "x", 20.0, 1000)])
            out = subprocess.run([sys.executable, SCRIPT, "--compare", a + ".journal.jsonl", b + ".journal.jsonl"],
                                 capture_output=True, text=True)
            self.assertEqual(out.returncode, 0, out.stderr)
            row = next(line for line in out.stdout.splitlines() if line.startswith("| 8x8x8 f32 nn"))
            self.assertEqual([c.strip() for c in row.split("|")[2:-1]], ["2.00", "0.50", "2.00", "0.50"])
            summary = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
                       for line in out.stdout.splitlines() if line.startswith("| 0.9")}
            self.assertEqual(summary["0.95"], ["1", "2.00", "0.50", "2.00", "0.50", "1", "0"])


if __name__ == "__main__":
    unittest.main()
