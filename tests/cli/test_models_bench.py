#!/usr/bin/env python3
"""scripts/models-bench.sh end to end on this machine's device with a stand-in for cuBLAS that reads the shapes
file through cublas_batched_anchor.py's own parser: batched and layout lines reach both sides, the table joins them
on M, N, K, batch, dtype and layout, targets and the odd/aligned edge rows are computed, and a problem the table
lacks fails the report."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.abspath(os.environ.get("GEMMTUNE_BIN", os.path.join(ROOT, "build", "gemmtune")))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import cublas_batched_anchor  # noqa: E402

# Every problem at 10 us: the ratio is 10 / gemmtune's time.
FAKE_ANCHOR = r'''
import argparse, json, sys
sys.path.insert(0, sys.argv.pop(1))
import cublas_batched_anchor as c
ap = argparse.ArgumentParser(); ap.add_argument("shapes_file"); ap.add_argument("--dtypes")
a = ap.parse_args()
for name, m, n, k, batch, dtype, layout in c.parse_shapes(a.shapes_file, a.dtypes.split(",")):
    print(json.dumps({"lib": "cublas", "name": name, "dtype": dtype, "layout": layout, "M": m, "N": n, "K": k,
                      "batch": batch, "us": 10.0}))
'''

SHAPES = """# two models' lines
tiny-scores   16x16x8x3   nt
odd-17x33x9   17x33x9     nn
aligned-16x32x8 16x32x8   nn
decode-m2     2x40x24     f32  tt
"""


class ModelsBench(unittest.TestCase):
    def test_the_suite_parses_and_every_line_has_a_layout(self):
        problems = cublas_batched_anchor.parse_shapes(os.path.join(ROOT, "configs", "shapes", "models.txt"),
                                                      ["f16", "bf16", "f32"])
        self.assertEqual(len(problems), 3 * 38)
        self.assertTrue(any(p[4] > 1 for p in problems))  # batched attention
        self.assertTrue(any(p[1] % 2 == 1 for p in problems))  # ViT's 197 tokens
        self.assertEqual({p[6] for p in problems}, {"nn", "nt", "tn", "tt"})

    def test_end_to_end_with_a_stand_in_anchor(self):
        with tempfile.TemporaryDirectory() as d:
            shapes = os.path.join(d, "shapes.txt")
            with open(shapes, "w") as f:
                f.write(SHAPES)
            # The script runs `python3 ANCHOR FILE --dtypes LIST`; the stand-in finds the parser's folder itself.
            anchor = os.path.join(d, "anchor.py")
            with open(anchor, "w") as f:
                f.write(f"import sys\nsys.argv.insert(1, {os.path.join(ROOT, 'scripts')!r})\n" + FAKE_ANCHOR)
            env = dict(os.environ, GEMMTUNE_BIN=BIN, CUBLAS_BATCHED_ANCHOR=anchor)
            out = os.path.join(d, "out")
            p = subprocess.run([os.path.join(ROOT, "scripts", "models-bench.sh"), "--budget", "2", "--dtypes",
                                "f16,f32", "--out-dir", out, "--shapes-file", shapes], env=env,
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, (p.stdout + p.stderr)[-3000:])
            with open(os.path.join(out, "bench.json")) as f:
                rows = json.load(f)
            # 3 lines in two dtypes, one line in f32 alone.
            self.assertEqual(len(rows), 7)
            batched = [r for r in rows if r["name"] == "tiny-scores"]
            self.assertEqual({(r["batch"], r["layout"]) for r in batched}, {(3, "nt")})
            self.assertEqual([(r["dtype"], r["layout"]) for r in rows if r["name"] == "decode-m2"], [("f32", "tt")])
            with open(os.path.join(out, "nvidia-h200.json")) as f:
                table = json.load(f)
            for r in rows:
                self.assertAlmostEqual(r["ratio"], 10.0 / r["us"], places=9)
                self.assertEqual(r["target"], 0.95 if r["M"] <= 16 else (0.75 if r["dtype"] == "f32" else 0.40))
                e = [e for e in table["entries"] if (e["m"], e["n"], e["k"], e["batch"], e["dtype"], e["layout"]) ==
                     (r["M"], r["N"], r["K"], r["batch"], r["dtype"], r["layout"])]
                self.assertEqual(len(e), 1)
                self.assertEqual(e[0]["best"]["name"], r["config"])
            for r in rows:
                if r["name"] == "odd-17x33x9":
                    aligned = next(a for a in rows if a["name"] == "aligned-16x32x8" and a["dtype"] == r["dtype"])
                    self.assertAlmostEqual(r["edge"]["fraction"], r["tflops"] / aligned["tflops"], places=9)
                else:
                    self.assertNotIn("edge", r)
            with open(os.path.join(out, "bench.md")) as f:
                md = f.read()
            self.assertIn("| tiny-scores | 16x16x8x3 | nt | f16 |", md)
            self.assertIn("edge rows within 15 % of their aligned shape", md)
            # A problem the table lacks (a cut-short run): the report says which and fails.
            with open(os.path.join(out, "cublas.jsonl"), "a") as f:
                f.write(json.dumps({"lib": "cublas", "name": "gone", "dtype": "f16", "layout": "nn", "M": 99,
                                    "N": 9, "K": 9, "batch": 1, "us": 1.0}) + "\n")
            p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "models_bench.py"),
                                os.path.join(out, "nvidia-h200.json"), os.path.join(out, "cublas.jsonl")],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 1)
            self.assertIn("no entry for gone 99x9x9x1 f16 nn", p.stderr)

    def test_a_run_stopped_early_joins_what_it_tuned(self):
        # TERM once the table holds its first problem (a call's time limit): the tune stops and keeps its table, the
        # join still runs on it and names the problems it lacks, exit 1.
        with tempfile.TemporaryDirectory() as d:
            shapes = os.path.join(d, "shapes.txt")
            with open(shapes, "w") as f:
                f.write("".join(f"p{i} {16 + i}x16x{32 + 8 * i} nn\n" for i in range(6)))
            anchor = os.path.join(d, "anchor.py")
            with open(anchor, "w") as f:
                f.write(f"import sys\nsys.argv.insert(1, {os.path.join(ROOT, 'scripts')!r})\n" + FAKE_ANCHOR)
            env = dict(os.environ, GEMMTUNE_BIN=BIN, CUBLAS_BATCHED_ANCHOR=anchor)
            out = os.path.join(d, "out")
            table = os.path.join(out, "nvidia-h200.json")
            p = subprocess.Popen([os.path.join(ROOT, "scripts", "models-bench.sh"), "--budget", "4", "--dtypes", "f32",
                                  "--out-dir", out, "--shapes-file", shapes], env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and p.poll() is None:
                try:
                    with open(table) as f:
                        if json.load(f)["entries"]:
                            break
                except (OSError, ValueError, KeyError):
                    pass
                time.sleep(0.1)
            self.assertIsNone(p.poll(), "the run ended before it could be stopped")
            p.send_signal(signal.SIGTERM)
            stdout, stderr = p.communicate(timeout=120)
            self.assertEqual(p.returncode, 1, (stdout + stderr)[-3000:])
            with open(os.path.join(out, "bench.json")) as f:
                rows = json.load(f)
            self.assertGreaterEqual(len(rows), 1)
            self.assertLess(len(rows), 6)
            self.assertIn("no entry for p5 ", stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
