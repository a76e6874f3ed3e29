#!/usr/bin/env python3
"""scripts/gpu-bench.sh end to end on this machine's device, with a stand-in for cuBLAS: the suite is read, the
table written, and bench.md / bench.json join gemmtune and the anchor by shape and dtype."""
import json
import os
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.abspath(os.environ.get("GEMMTUNE_BIN", os.path.join(ROOT, "build", "gemmtune")))

FAKE_ANCHOR = r'''
import argparse, json
ap = argparse.ArgumentParser(); ap.add_argument("--shapes"); ap.add_argument("--dtypes"); ap.add_argument("--cold", action="store_true")
ap.add_argument("--layouts", default="nn")
a = ap.parse_args()
for d in a.dtypes.split(","):
    for s in a.shapes.split(","):
        m, n, k = map(int, s.split("x"))
        for layout in a.layouts.split(","):
            print(json.dumps({"lib": "cublas", "dtype": d, "M": m, "N": n, "K": k, "cold": a.cold, "layout": layout,
                              "us": 20.0 if a.cold else 10.0}))
'''

# ggml_anchor.sh's stand-in: the decode suite's 2x24x40 in every weight type; f32 lines only with --matrix none
# (the real script's f32 lines otherwise run on 16-bit matrix units).
FAKE_GGML = r'''
matrix=auto
[ "${1:-}" = "--matrix" ] && matrix=$2
for t in f32 f16 bf16; do
  if [ "$matrix" = none ]; then [ $t = f32 ] || continue; units=none; else units=NV_coopmat2; fi
  echo "{\"lib\": \"ggml-vulkan\", \"matrix\": \"$units\", \"dtype\": \"$t\", \"layout\": \"nt\", \"M\": 2, \"N\": 24, \"K\": 40, \"us\": 8.0}"
done
'''

# scripts/cublas_int8_anchor.py's stand-in: int8 lines only, hot only.
FAKE_INT8_ANCHOR = r'''
import argparse, json
ap = argparse.ArgumentParser(); ap.add_argument("--shapes"); ap.add_argument("--layouts")
a = ap.parse_args()
for s in a.shapes.split(","):
    m, n, k = map(int, s.split("x"))
    for layout in a.layouts.split(","):
        print(json.dumps({"lib": "cublas", "dtype": "i8", "layout": layout, "M": m, "N": n, "K": k, "cold": False,
                          "us": 5.0 if layout == "nn" else 4.0}))
'''


class GpuBench(unittest.TestCase):
    def test_suite_table_and_side_by_side_files(self):
        with tempfile.TemporaryDirectory() as d:
            suite_shapes = os.path.join(ROOT, "configs", "shapes", "h200-suite.txt")
            self.assertTrue(os.path.exists(suite_shapes))
            anchor = os.path.join(d, "anchor.py")
            with open(anchor, "w") as f:
                f.write(FAKE_ANCHOR)
            int8_anchor = os.path.join(d, "int8_anchor.py")
            with open(int8_anchor, "w") as f:
                f.write(FAKE_INT8_ANCHOR)
            # A small suite so lavapipe finishes: the script reads the file named by the environment.
            small = os.path.join(d, "suite")
            os.makedirs(os.path.join(small, "scripts"))
            os.makedirs(os.path.join(small, "configs", "shapes"))
            for name in ["gpu-bench.sh", "ratio.py"]:
                os.symlink(os.path.join(ROOT, "scripts", name), os.path.join(small, "scripts", name))
            with open(os.path.join(small, "configs", "shapes", "h200-suite.txt"), "w") as f:
                f.write("# two problems\ntiny 8x16x32\n\nodd   5x7x9 cold # comment\n")
            with open(os.path.join(small, "configs", "shapes", "decode.txt"), "w") as f:
                f.write("# one decode line, weights N x K\ndec-m2 2x24x40 nt cold\n")
            ggml = os.path.join(d, "ggml.sh")
            with open(ggml, "w") as f:
                f.write(FAKE_GGML)
            out = os.path.join(d, "out")
            env = dict(os.environ, GEMMTUNE_BIN=BIN, CUBLAS_ANCHOR=anchor, CUBLAS_INT8_ANCHOR=int8_anchor, GGML_ANCHOR=ggml)
            # Budgets of 0.2 s and 1 MiB copies: lavapipe takes seconds a problem either way; what is tested is the join.
            p = subprocess.run(["bash", os.path.join(small, "scripts", "gpu-bench.sh"), "--budget", "0.2", "--peak-copy-bytes", "1048576", "--out-dir", out,
                                "--int8-shapes", "8x16x32", "--layout-shapes", "1x20x16"],
                               capture_output=True, text=True, env=env, timeout=600)
            self.assertEqual(p.returncode, 0, p.stderr + p.stdout)
            with open(os.path.join(out, "bench.json")) as f:
                rows = json.load(f)
            # The 8-bit integer rows: TOPS, the f16 figures of the same shape beside them, cuBLAS's int8 time for i8 only.
            int_rows = [r for r in rows if r["dtype"] in ("i8", "u8")]
            self.assertEqual(sorted((r["m"], r["n"], r["k"], r["dtype"], r["layout"]) for r in int_rows),
                             [(8, 16, 32, d, l) for d in ["i8", "u8"] for l in ["nn", "nt"]])
            for r in int_rows:
                if r["dtype"] == "i8":  # joined with the anchor line of its own layout
                    anchor_us = 5.0 if r["layout"] == "nn" else 4.0
                    self.assertEqual(r["cublas_us"], anchor_us)
                    self.assertLess(abs(r["ratio"] * r["gemmtune_us"] / anchor_us - 1.0), 1e-3, r)
                else:
                    self.assertIsNone(r["cublas_us"])
                    self.assertIsNone(r["ratio"])
                self.assertLess(abs(r["tops"] * r["gemmtune_us"] * 1e6 / (2 * 8 * 16 * 32) - 1.0), 2e-2, r)
                self.assertLess(abs(r["cublas_f16_tflops"] - 2 * 8 * 16 * 32 / 10.0 / 1e6), 1e-2, r)
                self.assertGreater(r["f16_tflops"], 0)
            rows = [r for r in rows if r not in int_rows]
            # The decode line (nt) hot and cold beside cuBLAS nt, and beside ggml-vulkan hot only: 16-bit rows from
            # its matrix-unit lines, f32 from its --matrix none line (the stand-in gives 8.0 us for each).
            decode = [r for r in rows if (r["m"], r["n"], r["k"]) == (2, 24, 40)]
            self.assertEqual(sorted((r["dtype"], r["layout"], r["cold"]) for r in decode),
                             sorted((d, "nt", c) for d in ["f32", "f16", "bf16"] for c in [False, True]))
            for r in decode:
                if r["cold"]:
                    self.assertIsNone(r["ggml_us"])
                else:
                    self.assertEqual(r["ggml_us"], 8.0)
                    self.assertLess(abs(r["ggml_ratio"] * r["gemmtune_us"] / 8.0 - 1.0), 1e-3, r)
                # bytes moved: A and B in the input type, C in f32
                moved = (4 if r["dtype"] == "f32" else 2) * (2 * 40 + 40 * 24) + 4 * 2 * 24
                self.assertLess(abs(r["gbps"] * r["gemmtune_us"] * 1e3 / moved - 1.0), 2e-2, r)
                self.assertGreater(r["copy_share"], 0)
            # The layout shape in all four layouts, hot and cold.
            layouts = [r for r in rows if (r["m"], r["n"], r["k"]) == (1, 20, 16)]
            self.assertEqual(sorted((r["dtype"], r["layout"], r["cold"]) for r in layouts),
                             sorted((d, l, c) for d in ["f32", "f16", "bf16"] for l in ["nn", "nt", "tn", "tt"] for c in [False, True]))
            rows = [r for r in rows if r not in decode and r not in layouts]
            # Every shape hot; the shape marked cold also cold, joined with the anchor's cold line.
            self.assertEqual(sorted((r["m"], r["n"], r["k"], r["dtype"], r["cold"]) for r in rows),
                             sorted((m, n, k, d, c) for (m, n, k, c) in [(8, 16, 32, False), (5, 7, 9, False), (5, 7, 9, True)]
                                    for d in ["f32", "f16", "bf16"]))
            for r in rows:
                for key in ["m", "n", "k", "dtype", "cold", "config", "gemmtune_us", "cublas_us", "ratio"]:
                    self.assertIn(key, r)
                anchor_us = 20.0 if r["cold"] else 10.0
                self.assertLess(abs(r["ratio"] * r["gemmtune_us"] / anchor_us - 1.0), 1e-3, r)  # ratio = cuBLAS / gemmtune
            with open(os.path.join(out, "bench.md")) as f:
                md = f.read()
            self.assertIn("| 8x16x32 | f32 | nn | hot |", md)
            self.assertIn("| 5x7x9 | bf16 | nn | cold |", md)
            self.assertIn("| 2x24x40 | f16 | nt | hot |", md)
            self.assertIn("| 8x16x32 | u8 | nt | hot |", md)
            table = json.load(open(os.path.join(out, "nvidia-h200.json")))
            self.assertGreater(table["device"]["peak"]["f32_tflops"], 0)

            # --resume (a run cut off by a device call's time limit, carried on): the anchors and the peak, done,
            # are not run again (anchors that would fail now), done problems are skipped, and the side-by-side
            # files come out with the same rows and configs.
            with open(os.path.join(out, "cublas.jsonl")) as f:
                anchor_lines = f.read()
            for path in [anchor, int8_anchor]:
                with open(path, "w") as f:
                    f.write("import sys\nsys.exit(7)\n")
            with open(ggml, "w") as f:
                f.write("exit 7\n")
            os.remove(os.path.join(out, "bench.json"))
            p = subprocess.run(["bash", os.path.join(small, "scripts", "gpu-bench.sh"), "--budget", "0.2", "--peak-copy-bytes", "1048576", "--out-dir", out,
                                "--int8-shapes", "8x16x32", "--layout-shapes", "1x20x16", "--resume"],
                               capture_output=True, text=True, env=env, timeout=600)
            self.assertEqual(p.returncode, 0, p.stderr + p.stdout)
            with open(os.path.join(out, "cublas.jsonl")) as f:
                self.assertEqual(f.read(), anchor_lines)
            with open(os.path.join(out, "nvidia-h200.json")) as f:
                resumed = json.load(f)
            entries = lambda t: sorted(json.dumps(e, sort_keys=True) for e in t["entries"])
            self.assertEqual(entries(resumed), entries(table))  # done problems untouched, none tuned again
            with open(os.path.join(out, "bench.json")) as f:
                self.assertEqual(len(json.load(f)), len(int_rows) + len(rows) + len(decode) + len(layouts))
            # Without --resume the anchors run again (and here fail: the script stops).
            p = subprocess.run(["bash", os.path.join(small, "scripts", "gpu-bench.sh"), "--budget", "0.2", "--out-dir", out],
                               capture_output=True, text=True, env=env, timeout=600)
            self.assertNotEqual(p.returncode, 0)

    def test_unknown_argument_is_refused(self):
        p = subprocess.run(["bash", os.path.join(ROOT, "scripts", "gpu-bench.sh"), "--fast"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("'--fast'", p.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
