#!/usr/bin/env python3
"""A config's numerics travel with it: tables record them ("native" where a family computes in its input type's own
arithmetic, the emulation's name otherwise), `lookup` names an emulating config's, the C++ header and the kit carry
them per entry, a table from before they were kept reads as native, the schema refuses a name it does not know, and
`--native-f32` leaves the emulating variants out (and refuses to be asked for one)."""
import json
import os
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.abspath(os.environ.get("GEMMTUNE_BIN", os.path.join(ROOT, "build", "gemmtune")))
TABLES = os.path.join(ROOT, "tests", "data", "tables")
EMULATED = "bf16x6_f32_bm128_bn128_bk32_sgm4_sgn2_splits4_stages1"


def run(args, **kw):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=300, **kw)


def emulating_table(directory):
    """The lavapipe fixture with its 128x768x3072 f32 winner replaced by a bf16x6 config (as a GPU tune records it)
    and a 64x64x64 f32 entry that keeps the native winner."""
    with open(os.path.join(TABLES, "llvmpipe.json")) as f:
        table = json.load(f)
    table["entries"] = [e for e in table["entries"] if e["dtype"] == "f32" and e["best"]]
    native = json.loads(json.dumps(table["entries"][0]))
    native.update(m=64, n=64, k=64)
    best = table["entries"][0]["best"]
    best.update(variant="bf16x6", name=EMULATED, numerics="bf16x6", kernel_hash="",
                params={"bm": 128, "bn": 128, "bk": 32, "sgm": 4, "sgn": 2, "splits": 4, "stages": 1})
    table["entries"].append(native)
    path = os.path.join(directory, "emulating.json")
    with open(path, "w") as f:
        json.dump(table, f)
    return path


class Numerics(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.table = emulating_table(cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def lookup(self, table, shape, *extra):
        r = run(["lookup", table, "--shape", shape, "--any-device", *extra])
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout

    def test_lookup_names_an_emulating_configs_numerics_exact_and_nearest(self):
        for shape, rule in (("128x768x3072", "exact"), ("100x700x3000", "nearest")):
            got = json.loads(self.lookup(self.table, shape, "--json"))
            self.assertEqual((got["config"], got["rule"], got["numerics"]), (EMULATED, rule, "bf16x6"))
            self.assertIn("numerics: bf16x6", self.lookup(self.table, shape))
        got = json.loads(self.lookup(self.table, "64x64x64", "--json"))
        self.assertEqual(got["numerics"], "native")
        self.assertNotIn("numerics", self.lookup(self.table, "64x64x64"))

    def test_a_table_from_before_numerics_were_kept_reads_as_native(self):
        with open(os.path.join(TABLES, "nvidia-h200.json")) as f:
            self.assertNotIn('"numerics"', f.read())
        got = json.loads(self.lookup(os.path.join(TABLES, "nvidia-h200.json"), "1024x768x3072", "--dtype", "f16",
                                     "--json"))
        self.assertEqual(got["numerics"], "native")

    def test_the_schema_refuses_a_numerics_name_it_does_not_know(self):
        with open(self.table) as f:
            table = json.load(f)
        table["entries"][0]["best"]["numerics"] = "bf16x9"
        path = os.path.join(self.tmp.name, "unknown.json")
        with open(path, "w") as f:
            json.dump(table, f)
        r = run(["lookup", path, "--shape", "4x4x4", "--any-device"])
        self.assertEqual(r.returncode, 2)
        self.assertIn("entries[0].best.numerics", r.stderr)

    def test_the_cpp_header_carries_each_entrys_numerics(self):
        header = os.path.join(self.tmp.name, "tuned.hpp")
        r = run(["export", self.table, "--format", "cpp", "--out", header])
        self.assertEqual(r.returncode, 0, r.stderr)
        program = os.path.join(self.tmp.name, "numerics.cpp")
        with open(program, "w") as f:
            f.write('#include <cstdio>\n#include "tuned.hpp"\nint main() {\n'
                    '  for (auto shape : {128, 64}) {\n'
                    '    auto c = gemmtune_tuned::lookup(shape, shape == 128 ? 768 : 64, shape == 128 ? 3072 : 64,'
                    ' "f32", "nn");\n'
                    '    std::printf("%s %.*s\\n", c.config.c_str(), int(c.from->numerics.size()),'
                    ' c.from->numerics.data());\n  }\n}\n')
        exe = os.path.join(self.tmp.name, "numerics")
        c = subprocess.run(["c++", "-std=c++17", "-Wall", "-Werror", program, "-o", exe], capture_output=True,
                           text=True, timeout=300)
        self.assertEqual(c.returncode, 0, c.stderr)
        lines = subprocess.run([exe], capture_output=True, text=True, timeout=60).stdout.splitlines()
        self.assertEqual(lines[0], EMULATED + " bf16x6")
        self.assertTrue(lines[1].endswith(" native"), lines)

    def test_the_kit_carries_the_emulating_config_and_its_numerics(self):
        kit = os.path.join(self.tmp.name, "kit")
        r = run(["export", self.table, "--format", "kit", "--out", kit])
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(kit, "gemm_kit.hpp")) as f:
            text = f.read()
        self.assertIn('{"%s", "bf16x6", "f32", ' % EMULATED, text)  # its kernel: config, module and rule
        self.assertIn('"bf16x6", "%s", "bf16x6", true' % EMULATED, text)  # its entry: variant, config, numerics

    def test_a_tuned_table_records_native_numerics(self):
        out = os.path.join(self.tmp.name, "tuned.json")
        r = run(["--shape", "16x16x16", "--variants", "tiled", "--budget", "1", "--out", out])
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            best = json.load(f)["entries"][0]["best"]
        self.assertEqual(best["numerics"], "native")

    def test_native_f32_leaves_the_emulating_variants_out(self):
        def inapplicable(*extra):
            r = run(["list", "--shape", "64x64x64", "--json", *extra])
            self.assertEqual(r.returncode, 0, r.stderr)
            return {v["variant"] for p in json.loads(r.stdout)["problems"] for v in p["not_applicable"]}
        # lavapipe has no matrix units, so bf16x6 is listed as inapplicable where it is swept at all.
        self.assertIn("bf16x6", inapplicable())
        self.assertNotIn("bf16x6", inapplicable("--native-f32"))
        self.assertIn("tiled", run(["list", "--shape", "64x64x64", "--native-f32"]).stdout)
        r = run(["--shape", "64x64x64", "--variants", "tiled,bf16x6", "--native-f32"])
        self.assertEqual(r.returncode, 2)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertIn("--variants", r.stderr)
        self.assertIn("--native-f32", r.stderr)


if __name__ == "__main__":
    unittest.main()
