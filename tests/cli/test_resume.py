#!/usr/bin/env python3
"""Never losing work: the journal, --resume after SIGKILL at random points, SIGINT/SIGTERM, budgets and
strategies, run on this machine's device (lavapipe in CI)."""
import json
import os
import random
import signal
import subprocess
import tempfile
import time
import unittest

BIN = os.path.abspath(os.environ.get("GEMMTUNE_BIN", "build/gemmtune"))
# A small space: about 33 few-rows configs per problem on lavapipe (shared memory sized by M), two problems.
SWEEP = ["--shape", "4x16x16,5x16x16", "--kernels", "fewrows_f32_cols8_*", "--budget", "100000", "--samples", "3"]


def journal(path):
    with open(path + ".journal.jsonl") as f:
        return [json.loads(l) for l in f.read().splitlines() if l.strip()]


def screened_set(path):
    return sorted({(r["problem"], r["config"]) for r in journal(path) if r["phase"] == "screen"})


def two_fewrows_configs(folder):
    """A space file leaving fewrows two configs; returns its path."""
    path = os.path.join(folder, "space.json")
    with open(path, "w") as f:
        json.dump({"space_version": 1, "variants": {"fewrows": {"cols": [8, 16], "slices": [4], "unroll": [1], "vec": [1]}}}, f)
    return path


def table(path):
    with open(path) as f:
        return json.load(f)


class Resume(unittest.TestCase):
    def test_sigkill_at_random_points_then_resume_measures_every_config_once_more_at_most(self):
        with tempfile.TemporaryDirectory() as d:
            whole = os.path.join(d, "whole.json")
            t0 = time.time()
            p = subprocess.run([BIN, *SWEEP, "--out", whole], capture_output=True, text=True, timeout=600)
            self.assertEqual(p.returncode, 0, p.stderr)
            uninterrupted_s = time.time() - t0
            expected = screened_set(whole)
            self.assertGreater(len(expected), 40)

            path = os.path.join(d, "killed.json")
            rng = random.Random(20261129)
            args = [BIN, *SWEEP, "--out", path]
            for i in range(12):
                proc = subprocess.Popen(args + (["--resume"] if i else []), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                time.sleep(rng.uniform(0.05, max(0.1, uninterrupted_s * 0.6)))
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                if os.path.exists(path):
                    t = table(path)  # never invalid, whatever the moment
                    self.assertEqual(t["schema_version"], 5)
            p = subprocess.run(args + ["--resume"], capture_output=True, text=True, timeout=600)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(screened_set(path), expected)
            entries = table(path)["entries"]
            self.assertEqual([e["m"] for e in entries], [4, 5])
            # Each problem screened exactly its own configs (fewrows sizes its shared memory by M, so M = 4 and 5
            # may keep different numbers of them on the device).
            per_problem = {}
            for problem, _ in expected:
                m = json.loads(problem)["m"]
                per_problem[m] = per_problem.get(m, 0) + 1
            for e in entries:
                self.assertIsNotNone(e["best"])
                self.assertFalse(e["interrupted"])
                self.assertEqual(e["candidates"]["evaluated"], per_problem[e["m"]])
            # A journal line torn by a kill is skipped; one broken in the middle is refused with its line.
            with open(path + ".journal.jsonl", "a") as f:
                f.write('{"device": "half a rec')
            self.assertEqual(subprocess.run(args + ["--resume"], capture_output=True, text=True).returncode, 0)
            with open(path + ".journal.jsonl", "a") as f:
                f.write('\n{"not": "a record"}\n')
            p = subprocess.run(args + ["--resume"], capture_output=True, text=True)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn(".journal.jsonl:", p.stderr)

    def test_sigint_and_sigterm_write_the_table_and_exit_130(self):
        for sig in (signal.SIGINT, signal.SIGTERM):
            with tempfile.TemporaryDirectory() as d:
                path = os.path.join(d, "t.json")
                proc = subprocess.Popen([BIN, *SWEEP, "--out", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                # Wait until the first config is in the journal, then ask to stop.
                deadline = time.time() + 120
                while time.time() < deadline:
                    if os.path.exists(path + ".journal.jsonl") and os.path.getsize(path + ".journal.jsonl") > 0:
                        break
                    time.sleep(0.02)
                proc.send_signal(sig)
                out, err = proc.communicate(timeout=120)
                self.assertEqual(proc.returncode, 130, err)
                self.assertIn("interrupted", err)
                entries = table(path)["entries"]
                self.assertEqual(len(entries), 1)
                self.assertTrue(entries[0]["interrupted"])
                self.assertIsNotNone(entries[0]["best"])
                # --resume finishes the sweep without screening the journaled configs again.
                before = len(screened_set(path))
                p = subprocess.run([BIN, *SWEEP, "--out", path, "--resume"], capture_output=True, text=True, timeout=600)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertIn(f"({before} from the journal)", p.stdout)
                self.assertEqual([e["interrupted"] for e in table(path)["entries"]], [False, False])

    def test_isolate_records_a_kernel_that_never_finishes_as_timed_out_and_completes(self):
        with tempfile.TemporaryDirectory() as d:
            space = two_fewrows_configs(d)
            path = os.path.join(d, "t.json")
            env = dict(os.environ, GEMMTUNE_TEST_KERNELS="hang")
            t0 = time.time()
            p = subprocess.run([BIN, "--shape", "4x16x16", "--variants", "hang,fewrows", "--space", space, "--isolate", "3",
                                "--samples", "3", "--out", path], capture_output=True, text=True, env=env, timeout=300)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertLess(time.time() - t0, 120)
            self.assertIn("hang_f32_x1 ran past 3", p.stderr)
            screens = {r["config"]: r["disposition"] for r in journal(path) if r["phase"] == "screen"}
            self.assertEqual(screens["hang_f32_x1"], "timed_out")
            e = table(path)["entries"][0]
            self.assertTrue(e["best"]["name"].startswith("fewrows_"))
            self.assertEqual(e["candidates"]["evaluated"], 3)
            self.assertEqual(e["candidates"]["failed"], 1)
            # Without the test variable there is no such variant.
            p = subprocess.run([BIN, "--shape", "4x16x16", "--variants", "hang"], capture_output=True, text=True)
            self.assertEqual(p.returncode, 2)
            # --isolate needs --out: the watcher reads the journal beside it.
            p = subprocess.run([BIN, "--shape", "4x16x16", "--isolate", "3"], capture_output=True, text=True)
            self.assertEqual(p.returncode, 2)
            self.assertIn("--isolate", p.stderr)

    def test_a_lost_device_is_recreated_and_the_config_recorded_as_device_lost(self):
        with tempfile.TemporaryDirectory() as d:
            space = two_fewrows_configs(d)
            path = os.path.join(d, "t.json")
            env = dict(os.environ, GEMMTUNE_TEST_KERNELS="hang,lose")
            p = subprocess.run([BIN, "--shape", "4x16x16,5x16x16", "--variants", "lose,fewrows", "--space", space,
                                "--samples", "3", "--out", path], capture_output=True, text=True, env=env, timeout=300)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(p.stderr.count("recreating the device"), 2)
            lost = [r for r in journal(path) if r["phase"] == "screen" and r["config"] == "lose_f32_x1"]
            self.assertEqual([r["disposition"] for r in lost], ["device_lost", "device_lost"])
            for e in table(path)["entries"]:
                self.assertTrue(e["best"]["name"].startswith("fewrows_"))
                self.assertEqual(e["candidates"]["failed"], 1)


class Concurrency(unittest.TestCase):
    def test_eight_processes_writing_one_table_lose_no_update(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.json")
            procs = [subprocess.Popen([BIN, "--shape", f"{m}x16x16", "--kernels", "fewrows_f32_cols8_slices4_unroll1_vec1",
                                       "--samples", "3", "--budget", "1", "--out", path],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for m in range(1, 8)]
            procs.append(subprocess.Popen([BIN, "peak", "--samples", "1", "--out", path], stdout=subprocess.DEVNULL,
                                          stderr=subprocess.PIPE, text=True))
            for p in procs:
                _, err = p.communicate(timeout=600)
                self.assertEqual(p.returncode, 0, err)
            t = table(path)
            self.assertEqual(sorted(e["m"] for e in t["entries"]), list(range(1, 8)))
            self.assertIsNotNone(t["device"]["peak"])
            self.assertEqual([f for f in os.listdir(d) if ".tmp." in f], [])  # no temp file left
            # The shared journal holds every run's records, whole lines only.
            self.assertEqual(len({r["problem"] for r in journal(path) if r["phase"] == "done"}), 7)


class Strategies(unittest.TestCase):
    def test_strategies_and_the_total_budget_are_recorded(self):
        with tempfile.TemporaryDirectory() as d:
            for strategy in ("exhaustive", "random"):
                path = os.path.join(d, strategy + ".json")
                p = subprocess.run([BIN, "--shape", "4x16x16", "--kernels", "fewrows_f32_cols8_slices4_*",
                                    "--strategy", strategy, "--samples", "3", "--out", path], capture_output=True, text=True)
                self.assertEqual(p.returncode, 0, p.stderr)
                e = table(path)["entries"][0]
                self.assertEqual(e["strategy"], strategy)
                finals = [r for r in journal(path) if r["phase"] == "final"]
                if strategy == "exhaustive":
                    self.assertEqual(len(finals), e["candidates"]["evaluated"])  # every config fully sampled
                else:
                    self.assertEqual(len(finals), 3)
                self.assertGreaterEqual(e["best"]["cv"], 0.0)
                # A runner-up is printed exactly when the table has one; it is null only where every other finalist
                # was cut after its first sample (a noisy first sample on a shared CPU can cut them all).
                if e["runner_up"] is not None:
                    self.assertIn("runner-up", p.stdout)
                else:
                    self.assertNotIn("runner-up", p.stdout)
                    self.assertIn("cut after one sample", p.stdout)
                    others = [r for r in finals if r["config"] != e["best"]["name"]]
                    self.assertTrue(others and all(len(r["samples_us"]) == 1 for r in others), others)
            # --total-budget 0.001: every problem gets a share of nothing; each still ends verified, marked exhausted.
            path = os.path.join(d, "total.json")
            p = subprocess.run([BIN, "--shape", "4x16x16,4x24x16", "--total-budget", "0.001", "--samples", "3", "--out", path],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            for e in table(path)["entries"]:
                self.assertTrue(e["budget_exhausted"])
                self.assertIsNotNone(e["best"])
                self.assertEqual(e["candidates"]["evaluated"], 1)

    def test_a_space_file_restricts_the_candidates_and_bad_ones_are_refused(self):
        with tempfile.TemporaryDirectory() as d:
            space = os.path.join(d, "space.json")
            with open(space, "w") as f:
                json.dump({"space_version": 1, "variants": {"fewrows": {"cols": [16], "slices": [4, 8], "unroll": [4], "vec": [1]}}}, f)
            p = subprocess.run([BIN, "list", "--shape", "4x64x64", "--variants", "fewrows", "--space", space],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            listed = [l.strip() for l in p.stdout.splitlines() if l.startswith("  ")]
            # Listed in screening order (8 slices ranked first); the set is what the file allows.
            self.assertEqual(sorted(listed), ["fewrows_f32_cols16_slices4_unroll4_vec1", "fewrows_f32_cols16_slices8_unroll4_vec1"])
            with open(space, "w") as f:
                f.write('{"space_version": 1, "variants": {"tiled": {"tm": [3]}}}')
            p = subprocess.run([BIN, "--shape", "8x8x8", "--space", space, "--out", os.path.join(d, "t.json")],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 2)
            self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
            self.assertIn("variants.tiled.tm: 3 is not supported", p.stderr)
            self.assertFalse(os.path.exists(os.path.join(d, "t.json")))
            p = subprocess.run([BIN, "--shape", "8x8x8", "--space", os.path.join(d, "missing.json")], capture_output=True, text=True)
            self.assertEqual(p.returncode, 5, p.stderr)

    def test_log_json_gives_one_object_per_line_and_plain_logs_one_line_per_candidate(self):
        with tempfile.TemporaryDirectory() as d:
            args = [BIN, "--shape", "4x16x16", "--kernels", "fewrows_f32_cols8_slices4_*", "--samples", "3",
                    "--budget", "30s", "--out", os.path.join(d, "t.json")]
            p = subprocess.run(args + ["--log-json"], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            records = [json.loads(l) for l in p.stderr.splitlines()]
            self.assertTrue(all(set(r) == {"time", "level", "message"} for r in records), records)
            candidates = [r for r in records if r["message"].startswith("[")]
            self.assertEqual(len(candidates), 9)  # 3 unroll x 3 vec, one record each
            p = subprocess.run(args, capture_output=True, text=True)  # not a terminal: plain lines
            self.assertEqual(len([l for l in p.stderr.splitlines() if l.startswith("[info] [")]), 9, p.stderr)
            p = subprocess.run([BIN, "--shape", "4x16x16", "--log-json", "--budget", "2x"], capture_output=True, text=True)
            self.assertEqual(p.returncode, 2)
            self.assertEqual(p.stderr.strip().splitlines(), ["gemmtune: error: --budget: '2x': expected seconds, optionally with a unit: 90, 60s, 2m, 1.5h"])

    def test_a_bad_strategy_is_one_line_and_exit_2(self):
        p = subprocess.run([BIN, "--shape", "8x8x8", "--strategy", "greedy"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
        self.assertIn("--strategy", p.stderr)
        self.assertIn("greedy", p.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
