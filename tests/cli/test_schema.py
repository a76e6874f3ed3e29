#!/usr/bin/env python3
"""Every table gemmtune writes validates against configs/schema/tuning-table.schema.json (python3-jsonschema),
and so do the committed tables; the schema is strict enough to refuse a table with a stray or missing key."""
import copy
import json
import os
import subprocess
import tempfile
import unittest

import jsonschema

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.abspath(os.environ.get("GEMMTUNE_BIN", os.path.join(ROOT, "build", "gemmtune")))
with open(os.path.join(ROOT, "configs", "schema", "tuning-table.schema.json")) as f:
    SCHEMA = json.load(f)
jsonschema.Draft202012Validator.check_schema(SCHEMA)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
with open(os.path.join(ROOT, "configs", "schema", "journal-record.schema.json")) as f:
    JOURNAL = jsonschema.Draft202012Validator(json.load(f))


def errors(table):
    return [e.message for e in VALIDATOR.iter_errors(table)]


class Schema(unittest.TestCase):
    def test_the_committed_tables_validate(self):
        for path in ["tests/data/tables/nvidia-h200.json", "results/h200/nvidia-h200.json", "tests/data/tables/llvmpipe.json"]:
            with open(os.path.join(ROOT, path)) as f:
                self.assertEqual(errors(json.load(f)), [], path)

    def test_every_kind_of_table_gemmtune_writes_validates(self):
        small = ["--kernels", "fewrows_*_cols8_slices4_unroll1_*", "--samples", "3", "--budget", "2"]
        with tempfile.TemporaryDirectory() as d:
            a, b, merged = (os.path.join(d, n) for n in ("a.json", "b.json", "m.json"))
            runs = [
                [BIN, "peak", "--samples", "1", "--out", a],
                [BIN, "--shape", "4x16x16x2", "--dtype", "f32,bf16", "--layout", "tn", "--beta", "1", "--bias", "--activation",
                 "gelu-erf", "--stride-b", "0", "--out", a, *small],
                [BIN, "--shape", "5x16x16", "--cold", "--strategy", "exhaustive", "--out", a, *small],
                [BIN, "--shape", "1x51865x768", "--out", a, "--budget", "1"],  # over lavapipe's limit: recorded unsupported
                [BIN, "--shape", "6x16x16", "--mode", "deterministic", "--strategy", "random", "--out", b, *small],
                [BIN, "merge", a, b, "-o", merged],
            ]
            for args in runs:
                p = subprocess.run(args, capture_output=True, text=True, timeout=600)
                self.assertIn(p.returncode, (0, 3), p.stderr)
            for path in (a, b, merged):
                with open(path) as f:
                    table = json.load(f)
                self.assertEqual(errors(table), [], path)
            # Every journal line those runs wrote holds to configs/schema/journal-record.schema.json.
            phases = set()
            for path in (a, b):
                with open(path + ".journal.jsonl") as f:
                    for line in f:
                        record = json.loads(line)
                        phases.add(record["phase"])
                        self.assertEqual([e.message for e in JOURNAL.iter_errors(record)], [], line)
            self.assertTrue({"begin", "screen", "final", "done"} <= phases, phases)
            self.assertIsNotNone(table["device"]["peak"])
            self.assertTrue(any(e["unsupported"] for e in table["entries"]))
            self.assertTrue(any(e["best"] is None for e in table["entries"]))

            # Strict: a stray key, a missing key or a wrong type is refused.
            stray = copy.deepcopy(table)
            stray["entries"][0]["speedup"] = 2
            missing = copy.deepcopy(table)
            del missing["entries"][0]["cold"]
            wrong = copy.deepcopy(table)
            wrong["entries"][0]["m"] = "4"
            for bad in (stray, missing, wrong):
                self.assertNotEqual(errors(bad), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
