#!/usr/bin/env python3
"""Block-quantized weights through the CLI: `--dtype f16:q4_0` (and the other three) tune in layouts nt and tt, the
table records the dtype by name and the configs by their token, validates against the schema (and its journal
lines against theirs), and `lookup`, `export` (a compiled header) and `report` read it; a dtype with no entries
falls back to the tiled kernel that decodes blocks while staging."""
import json
import os
import subprocess
import tempfile
import unittest

import jsonschema

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.abspath(os.environ.get("GEMMTUNE_BIN", os.path.join(ROOT, "build", "gemmtune")))
with open(os.path.join(ROOT, "configs", "schema", "tuning-table.schema.json")) as f:
    TABLE_SCHEMA = jsonschema.Draft202012Validator(json.load(f))


def run(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=600)


class QuantizedCli(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.table = os.path.join(cls.tmp.name, "q.json")
        r = run("--shape", "3x64x256,40x24x128", "--dtype", "f16:q4_0,f32:q8_0", "--layout", "nt,tt", "--budget",
                "1", "--out", cls.table)
        assert r.returncode == 0, r.stderr
        with open(cls.table) as f:
            cls.doc = json.load(f)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_every_problem_has_a_verified_winner_named_by_the_dtypes_token(self):
        self.assertEqual(list(TABLE_SCHEMA.iter_errors(self.doc)), [])
        self.assertEqual(len(self.doc["entries"]), 8)
        for e in self.doc["entries"]:
            token = {"f16:q4_0": "f16q4", "f32:q8_0": "f32q8"}[e["dtype"]]
            self.assertIsNotNone(e["best"], e)
            self.assertIn("_%s_" % token, e["best"]["name"])
            self.assertEqual(e["best"]["bound"], 2e-3)
            self.assertLessEqual(e["best"]["error"], 2e-3)
            # Decoding-sized rows are qrowdot's or a tiled kernel's; 40 rows only the tiled kernels'.
            if e["m"] == 40:
                self.assertIn(e["best"]["variant"], ("tiled", "splitk"))

    def test_lookup_finds_the_entries_and_falls_back_to_the_block_decoding_tiled_kernel(self):
        r = run("lookup", self.table, "--shape", "3x64x256", "--dtype", "f16:q4_0", "--layout", "nt", "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        got = json.loads(r.stdout)
        self.assertEqual(got["rule"], "exact")
        self.assertTrue(got["config"].split("_")[1] == "f16q4", got)
        r = run("lookup", self.table, "--shape", "4x64x256", "--dtype", "f32:q4_0", "--layout", "nt", "--json")
        self.assertEqual(json.loads(r.stdout)["config"], "tiled_f32q4_bm64_bn64_bk16_tm4_tn4")
        # The default names a config this build has: bench runs it.
        r = run("bench", "--config", "tiled_f32q4_bm64_bn64_bk16_tm4_tn4", "--shape", "4x64x256", "--layout", "nt",
                "--samples", "1")
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_bench_times_each_pass_of_a_config_that_decodes_first(self):
        config = "tiled_f16q8_bm32_bn32_bk16_tm4_tn4_prepass1"
        r = run("bench", "--config", config, "--shape", "8x64x256", "--layout", "nt", "--samples", "1")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r"each pass alone: prepass [0-9.]+ us, main [0-9.]+ us")
        r = run("bench", "--config", config, "--shape", "8x64x256", "--layout", "nt", "--samples", "1", "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(sorted(json.loads(r.stdout)["results"][0]["passes_us"]), ["main", "prepass"])
        # One pass: no pass times.
        r = run("bench", "--config", "tiled_f16q8_bm32_bn32_bk16_tm4_tn4", "--shape", "8x64x256", "--layout", "nt",
                "--samples", "1", "--json")
        self.assertNotIn("passes_us", json.loads(r.stdout)["results"][0])

    def test_the_exported_header_chooses_as_lookup_does(self):
        header = os.path.join(self.tmp.name, "tuned.hpp")
        r = run("export", self.table, "--format", "cpp", "--out", header)
        self.assertEqual(r.returncode, 0, r.stderr)
        program = os.path.join(self.tmp.name, "q.cpp")
        with open(program, "w") as f:
            f.write('#include <cstdio>\n#include "tuned.hpp"\nint main() {\n'
                    '  std::printf("%s\\n", gemmtune_tuned::lookup(3, 64, 256, "f16:q4_0", "nt").config.c_str());\n'
                    '  std::printf("%s\\n", gemmtune_tuned::lookup(4, 64, 256, "f32:q4_0", "nt").config.c_str());\n}\n')
        exe = os.path.join(self.tmp.name, "q")
        c = subprocess.run(["c++", "-std=c++17", "-Wall", "-Werror", program, "-o", exe], capture_output=True,
                           text=True, timeout=300)
        self.assertEqual(c.returncode, 0, c.stderr)
        lines = subprocess.run([exe], capture_output=True, text=True, timeout=60).stdout.splitlines()
        r = run("lookup", self.table, "--shape", "3x64x256", "--dtype", "f16:q4_0", "--layout", "nt", "--json")
        self.assertEqual(lines, [json.loads(r.stdout)["config"], "tiled_f32q4_bm64_bn64_bk16_tm4_tn4"])

    def test_the_report_has_a_section_per_quantized_dtype(self):
        page = os.path.join(self.tmp.name, "r.html")
        r = run("report", self.table, "-o", page)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(page) as f:
            html = f.read()
        self.assertIn("<h3>f16:q4_0: entries</h3>", html)
        self.assertIn("<h3>f32:q8_0: entries</h3>", html)


if __name__ == "__main__":
    unittest.main()
