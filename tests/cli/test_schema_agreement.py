#!/usr/bin/env python3
"""gemmtune and python3-jsonschema agree on every damaged table: a corpus made by damaging each field of a valid
table in turn (deleted, of the wrong type, out of range, outside its enum or pattern, a stray key beside it) is fed
to `gemmtune lookup` and to configs/schema/tuning-table.schema.json; the tool refuses (exit 2, one line naming the
file and the field's path) exactly what the schema refuses, plus the one rule a JSON Schema cannot state (two
entries with one key)."""
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
    VALIDATOR = jsonschema.Draft202012Validator(json.load(f))


def fixture():
    """tests/data/tables/llvmpipe.json (entries with and without a winner) with the H200 table's measured peak."""
    with open(os.path.join(ROOT, "tests", "data", "tables", "llvmpipe.json")) as f:
        table = json.load(f)
    with open(os.path.join(ROOT, "tests", "data", "tables", "nvidia-h200.json")) as f:
        table["device"]["peak"] = json.load(f)["device"]["peak"]
    return table


def paths(node, path=()):
    """Every member's path; of an array, its first element only (the others have the same rules)."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield path + (key,)
            yield from paths(value, path + (key,))
    elif isinstance(node, list) and node:
        yield path + (0,)
        yield from paths(node[0], path + (0,))


def at(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def replacements(value):
    """Values of another type, out of range, outside any enum or pattern."""
    out = {"null": None, "list": [], "object": {}}
    if isinstance(value, bool):
        out.update({"number": 1, "string": "true"})
    elif isinstance(value, (int, float)):
        out.update({"string": "5", "negative": -5, "fraction": 1.5, "zero": 0, "bool": True})
    elif isinstance(value, str):
        out.update({"number": 7, "other": "zz9", "empty": ""})
    else:
        out.update({"number": 3, "string": "x"})
    return out


def corpus():
    base = fixture()
    assert not list(VALIDATOR.iter_errors(base)), "the fixture must be valid"
    out = []
    for path in paths(base):
        where = ".".join(str(p) for p in path)
        parent = at(base, path[:-1])
        if isinstance(parent, dict):
            d = copy.deepcopy(base)
            del at(d, path[:-1])[path[-1]]
            out.append((f"{where} deleted", d))
        for name, value in replacements(at(base, path)).items():
            d = copy.deepcopy(base)
            at(d, path[:-1])[path[-1]] = value
            out.append((f"{where} = {name}", d))
        if isinstance(at(base, path), dict):
            d = copy.deepcopy(base)
            at(d, path)["stray"] = 1
            out.append((f"{where} + stray key", d))
    return out


def tool_refuses(doc, directory, i):
    path = os.path.join(directory, f"case{i}.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    p = subprocess.run([BIN, "lookup", path, "--shape", "4x4x4", "--any-device"], capture_output=True, text=True,
                       timeout=60)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    return p.returncode == 2, p.returncode, lines, path


class SchemaAgreement(unittest.TestCase):
    def test_the_tool_refuses_what_the_schema_refuses_and_nothing_else(self):
        cases = corpus()
        self.assertGreater(len(cases), 500)
        refused = 0
        with tempfile.TemporaryDirectory() as d:
            for i, (label, doc) in enumerate(cases):
                schema_errors = list(VALIDATOR.iter_errors(doc))
                tool, rc, lines, path = tool_refuses(doc, d, i)
                self.assertEqual(tool, bool(schema_errors),
                                 f"{label}: schema {'refuses' if schema_errors else 'accepts'}, tool exit {rc}: {lines}")
                if tool:
                    refused += 1
                    self.assertEqual(len(lines), 1, f"{label}: {lines}")
                    self.assertIn(path, lines[0], label)
        self.assertGreater(refused, 400)

    def test_two_entries_with_one_key_are_refused_though_the_schema_allows_them(self):
        doc = fixture()
        doc["entries"].append(copy.deepcopy(doc["entries"][1]))
        self.assertEqual(list(VALIDATOR.iter_errors(doc)), [])
        with tempfile.TemporaryDirectory() as d:
            tool, rc, lines, path = tool_refuses(doc, d, 0)
        self.assertTrue(tool, f"exit {rc}: {lines}")
        self.assertIn("entries[3]: the same key as entries[1]", lines[0])

    def test_an_error_names_the_path_the_value_and_the_rule(self):
        doc = fixture()
        doc["entries"][1]["best"]["median_us"] = -5
        with tempfile.TemporaryDirectory() as d:
            tool, rc, lines, path = tool_refuses(doc, d, 0)
        self.assertEqual(lines, [f"gemmtune: error: {path}: entries[1].best.median_us: -5: below the minimum 0"])

    def test_a_baseline_outside_the_schema_is_never_a_pass(self):
        doc = fixture()
        doc["entries"][1]["best"]["median_us"] = -5  # a new table 1000x slower would "win" against it
        good = os.path.join(ROOT, "tests", "data", "tables", "llvmpipe.json")
        with tempfile.TemporaryDirectory() as d:
            base = os.path.join(d, "base.json")
            with open(base, "w") as f:
                json.dump(doc, f)
            for args in (["compare", base, good], ["merge", base, good, "-o", os.path.join(d, "m.json")],
                         ["export", base, "--format", "cpp"]):
                p = subprocess.run([BIN, *args], capture_output=True, text=True, timeout=60)
                self.assertEqual(p.returncode, 2, f"{args[0]}: {p.stdout} {p.stderr}")
                self.assertIn(f"{base}: entries[1].best.median_us: -5: below the minimum 0", p.stderr)
            self.assertFalse(os.path.exists(os.path.join(d, "m.json")))


if __name__ == "__main__":
    unittest.main()
