#!/usr/bin/env python3
"""`--devices`: one worker per device over its shard, tables merged per device identity. On lavapipe `all` is one
device (an ordinary run); a repeated index runs several workers on one device, which exercises the workers,
the merge and the part tables without a second GPU."""
import json
import os
import signal
import subprocess
import tempfile
import time
import unittest

BIN = os.path.abspath(os.environ.get("GEMMTUNE_BIN", "build/gemmtune"))
SWEEP = ["--shape", "4x16x16,5x16x16,6x16x16,7x16x16", "--kernels", "fewrows_f32_cols8_slices4_*", "--budget", "1",
         "--samples", "3"]


def run(*args, cwd=None):
    p = subprocess.run([BIN, *args], capture_output=True, text=True, timeout=600, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def keys(path):
    with open(path) as f:
        return sorted((e["m"], e["n"], e["k"], e["dtype"]) for e in json.load(f)["entries"])


class Devices(unittest.TestCase):
    def test_all_on_a_single_device_host_is_an_ordinary_run(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.json")
            rc, out, err = run(*SWEEP, "--devices", "all", "--out", path)
            self.assertEqual(rc, 0, err)
            self.assertNotIn("workers", err)
            self.assertEqual(len(keys(path)), 4)
            self.assertEqual(sorted(os.listdir(d)), ["t.json", "t.json.journal.jsonl", "t.json.lock"])

    def test_two_workers_cover_every_problem_once_and_merge_into_one_table(self):
        with tempfile.TemporaryDirectory() as d:
            whole = os.path.join(d, "whole.json")
            rc, _, err = run(*SWEEP, "--out", whole)
            self.assertEqual(rc, 0, err)
            path = os.path.join(d, "two.json")
            rc, out, err = run(*SWEEP, "--devices", "0,0", "--out", path)
            self.assertEqual(rc, 0, err)
            self.assertIn("--devices: 2 workers", err)
            self.assertEqual(keys(path), keys(whole))
            with open(path) as f:
                table = json.load(f)
            self.assertTrue(all(e["best"] is not None for e in table["entries"]))
            # Each problem tuned by exactly one worker: four result tables on stdout in all.
            self.assertEqual(out.count("rerun: gemmtune bench"), 4)
            leftovers = [f for f in os.listdir(d) if ".part" in f]
            self.assertEqual(leftovers, [], "part tables are removed once every worker finished")

    def test_an_existing_table_keeps_its_other_entries(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.json")
            rc, _, err = run("--shape", "3x16x16", "--kernels", "fewrows_f32_cols8_slices4_*", "--budget", "1",
                             "--samples", "3", "--out", path)
            self.assertEqual(rc, 0, err)
            rc, _, err = run(*SWEEP, "--devices", "0,0", "--out", path)
            self.assertEqual(rc, 0, err)
            self.assertEqual(len(keys(path)), 5)

    def test_interrupted_workers_keep_their_parts_and_resume_finishes(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.json")
            # Every f32 few-rows config of two problems: long enough to interrupt after the first configs.
            sweep = ["--shape", "4x16x16,5x16x16", "--kernels", "fewrows_f32_*", "--budget", "100000", "--samples", "3"]
            p = subprocess.Popen([BIN, *sweep, "--devices", "0,0", "--out", path], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
            time.sleep(4)
            p.send_signal(signal.SIGINT)
            _, err = p.communicate(timeout=300)
            self.assertEqual(p.returncode, 130, err)
            self.assertTrue(any(".part" in f for f in os.listdir(d)), "parts kept for --resume")
            rc, _, err = run(*sweep, "--devices", "0,0", "--out", path, "--resume")
            self.assertEqual(rc, 0, err)
            self.assertEqual(len(keys(path)), 2)
            self.assertEqual([f for f in os.listdir(d) if ".part" in f], [])

    def test_bad_values_are_one_line_exit_2(self):
        cases = [(["--devices", "7"], "--devices: '7': no device 7"),
                 (["--devices", "0,x"], "--devices: '0,x': expected all or device indices"),
                 (["--devices", "0,0", "--device", "0"], "cannot be combined with --device"),
                 (["--devices", "0,0", "--shard", "0/2"], "cannot be combined with --shard"),
                 (["--devices", "0,0", "--json"], "--json takes one device")]
        for extra, fragment in cases:
            rc, _, err = run(*SWEEP, *extra)
            self.assertEqual(rc, 2, err)
            lines = [l for l in err.splitlines() if l.strip()]
            self.assertEqual(len(lines), 1, err)
            self.assertIn(fragment, lines[0])


if __name__ == "__main__":
    unittest.main(verbosity=2)
