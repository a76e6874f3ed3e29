#!/usr/bin/env python3
"""`gemmtune export --format kit` end to end on this machine's device: a table tuned here, its kit exported, the
downstream example (tests/kit_example: its own CMake project, the kit, Vulkan headers, volk and Eigen only) built
against it and run over every entry and a set of nearest-shape problems, each verified against Eigen; its choices
equal `gemmtune lookup`'s; a table tuned into another config changes what the kit dispatches; a device other than
the tuned one is reported; bad input is one line and writes nothing. Weights in ggml's q8_0 and q4_0 blocks run
too: the example writes its own blocks, as a downstream engine holds them, and a config that decodes them in a
pre-pass first runs its two passes."""
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.abspath(os.environ.get("GEMMTUNE_BIN", os.path.join(ROOT, "build", "gemmtune")))
EXAMPLE = os.path.join(ROOT, "tests", "kit_example")
# Shapes the example runs beyond the table's own (MxNxK:dtype:layout): each is nearest to an entry, or the default.
NEAREST = ["50x40x40:f32:nn", "64x48x1000:f32:nn", "2x180x256:f16:nt", "1x300x128:f16:nn", "30x64x128:i8:nt",
           "64x40x48:f16:tn", "33x65x129:bf16:tt", "16x48x64:u8:nn",
           # Weights in ggml's blocks: nearest to the tuned entries, and a type with none (the default).
           "2x64x512:f16:q4_0:nt", "33x48x96:f32:q8_0:tt", "4x40x64:f32:q4_0:nt"]
LINE = re.compile(r"^(\d+)x(\d+)x(\d+) ([\w:]+) (\w\w): (exact|nearest|default) (\S+), (\d) pass(?:es)?, "
                  r"grid (\d+)x(\d+)x(\d+), error \S+ / \S+: (ok|FAILED)$")


def read(path):
    with open(path) as f:
        return f.read()


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=600, **kw)


def tune(table, shapes, layouts, dtype, variants=None, kernels=None):
    args = [BIN, "--shape", shapes, "--layout", layouts, "--dtype", dtype, "--budget", "2", "--out", table]
    if variants:
        args += ["--variants", variants]
    if kernels:
        args += ["--kernels", kernels]
    r = run(args)
    assert r.returncode == 0, r.stderr


class Kit(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="gemmtune-kit-")
        cls.table = os.path.join(cls.dir, "table.json")
        tune(cls.table, "64x48x40", "nn", "f32", "warptile")
        tune(cls.table, "64x48x40", "nt", "f32")
        # Split-k alone for nn, so a two-pass plan is in the table whatever the nearest entries seed first.
        tune(cls.table, "40x72x600", "nn", "f32", "splitk")
        # And a k split finished in one pass (warptile's splits without a reduce pass) for nt, whatever is fastest.
        tune(cls.table, "40x72x600", "nt", "f32", "warptile", "warptile_f32_*_splits[2-9]")
        tune(cls.table, "1x256x128,3x200x256", "nn,nt", "f16")
        tune(cls.table, "32x64x96", "nt", "i8")
        tune(cls.table, "3x64x256", "nt", "f16:q4_0", "qrowdot")
        # op(A) quantized by a pre-pass before the packed dot products: the decoding kernel's plan of two passes.
        tune(cls.table, "5x40x256", "tt", "f32:q4_0", "qrowdp")
        tune(cls.table, "40x24x128", "tt", "f32:q8_0")
        # B decoded once by a pre-pass before the tiled kernel: a plan of two passes from a quantized entry.
        tune(cls.table, "72x40x128", "nt", "f16:q8_0", "tiled", "tiled_*_prepass1")
        cls.kit, cls.output = cls.build_and_run("k1", cls.table)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    @classmethod
    def build_and_run(cls, name, table):
        kit = os.path.join(cls.dir, name)
        r = run([BIN, "export", table, "--format", "kit", "--out", kit, "--namespace", "downstream"])
        assert r.returncode == 0, r.stderr
        build = os.path.join(cls.dir, name + "-build")
        r = run(["cmake", "-S", EXAMPLE, "-B", build, "-DKIT_DIR=" + kit, "-DKIT_NAMESPACE=downstream"])
        assert r.returncode == 0, r.stdout + r.stderr
        r = run(["cmake", "--build", build, "-j2"])
        assert r.returncode == 0, r.stdout + r.stderr
        r = run([os.path.join(build, "kit_example")] + NEAREST)
        return kit, r

    def lines(self, output):
        return {(int(m[1]), int(m[2]), int(m[3]), m[4], m[5]): m for m in map(LINE.match, output.splitlines()) if m}

    def test_every_entry_and_every_nearest_problem_verifies(self):
        self.assertEqual(self.output.returncode, 0, self.output.stdout + self.output.stderr)
        lines = self.lines(self.output.stdout)
        entries = json.loads(read(self.table))["entries"]
        self.assertEqual(len(lines), len(entries) + len(NEAREST), self.output.stdout)
        for e in entries:
            m = lines[(e["m"], e["n"], e["k"], e["dtype"], e["layout"])]
            self.assertEqual((m[6], m[7], m[12]), ("exact", e["best"]["name"], "ok"), m[0])
        self.assertIn("problems, 0 failed", self.output.stdout)
        # Weights in blocks: the decoding kernel from its entry, the block-decoding tiled kernel as the default.
        self.assertEqual(lines[(3, 64, 256, "f16:q4_0", "nt")][7].split("_")[:2], ["qrowdot", "f16q4"])
        default = lines[(4, 40, 64, "f32:q4_0", "nt")]
        self.assertEqual((default[6], default[7]), ("default", "tiled_f32q4_bm64_bn64_bk16_tm4_tn4"))
        packed = lines[(5, 40, 256, "f32:q4_0", "tt")]
        self.assertEqual((packed[7].split("_")[0], packed[8], packed[12]), ("qrowdp", "2", "ok"), packed[0])
        decoded = lines[(72, 40, 128, "f16:q8_0", "nt")]
        self.assertEqual((decoded[7].endswith("_prepass1"), decoded[8], decoded[12]), (True, "2", "ok"), decoded[0])
        # The table's splits show in the plans: a reduce pass, and a k split finished in one pass.
        self.assertTrue(any(m[8] == "2" for m in lines.values()), self.output.stdout)
        self.assertTrue(any("splits" in m[7] and m[8] == "1" and "splits1" not in m[7] for m in lines.values()),
                        self.output.stdout)

    def test_choices_equal_gemmtune_lookup(self):
        for key, m in self.lines(self.output.stdout).items():
            r = run([BIN, "lookup", self.table, "--shape", "%dx%dx%d" % key[:3], "--dtype", key[3], "--layout", key[4],
                     "--any-device", "--json"])
            self.assertEqual(r.returncode, 0, r.stderr)
            got = json.loads(r.stdout)
            self.assertEqual((got["rule"], got["config"]), (m[6], m[7]), m[0])

    def test_a_table_tuned_into_another_config_changes_what_the_kit_dispatches(self):
        other = os.path.join(self.dir, "other.json")
        shutil.copy(self.table, other)
        tune(other, "64x48x40", "nn", "f32", "tiled")  # the entry was warptile's
        _, r = self.build_and_run("k2", other)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        before = self.lines(self.output.stdout)[(64, 48, 40, "f32", "nn")]
        after = self.lines(r.stdout)[(64, 48, 40, "f32", "nn")]
        self.assertTrue(before[7].startswith("warptile_"), before[0])
        self.assertTrue(after[7].startswith("tiled_"), after[0])
        self.assertEqual(after[12], "ok")

    def test_another_device_is_reported_and_the_kit_still_runs(self):
        self.assertNotIn("device mismatch", self.output.stdout)
        table = json.loads(read(self.table))
        table["device"]["name"] = "Some Other GPU"
        table["device"]["driver_version"] = "1.2.3"
        other = os.path.join(self.dir, "renamed.json")
        with open(other, "w") as f:
            json.dump(table, f)
        _, r = self.build_and_run("k3", other)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertRegex(r.stdout, r"device mismatch: device '[^']+', tuned on 'Some Other GPU'; driver \S+, tuned "
                                   r"with 1\.2\.3")

    def test_the_kit_carries_gemmtunes_dispatch_rules_and_recording_helper(self):
        rules = read(os.path.join(self.kit, "gemm_rules.hpp"))
        original = read(os.path.join(ROOT, "src", "core", "dispatch_rules.hpp"))
        self.assertEqual(rules.replace("downstream::rules", "gemmtune::rules"), original)
        helper = read(os.path.join(self.kit, "gemm_kit_vulkan.hpp"))
        original = read(os.path.join(ROOT, "src", "kit", "gemm_kit_vulkan.hpp"))
        self.assertEqual(helper.replace("downstream::kit", "gemmtune::kit").replace(
            '#include "gemm_rules.hpp"', '#include "core/dispatch_rules.hpp"'), original)

    def test_bad_input_is_one_line_and_writes_nothing(self):
        out = os.path.join(self.dir, "never")
        r = run([BIN, "export", self.table, "--format", "kit"])
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr.strip().count("\n"), 0, r.stderr)
        self.assertIn("--out", r.stderr)
        r = run([BIN, "export", self.table, "--format", "kit", "--out", out, "--namespace", "9lives"])
        self.assertEqual(r.returncode, 2)
        self.assertIn("--namespace: '9lives': not a C++ identifier", r.stderr)
        # Identifiers the generated code could not use: a keyword, reserved names, std; for both formats.
        for ns, why in [("class", "a C++ keyword"), ("and", "a C++ keyword"), ("a__b", "reserved"),
                        ("_Tuned", "reserved"), ("std", "the standard library's namespace")]:
            for fmt in (["--format", "kit", "--out", out], ["--format", "cpp"]):
                r = run([BIN, "export", self.table, *fmt, "--namespace", ns])
                self.assertEqual(r.returncode, 2, f"{ns} {fmt}: {r.stderr}")
                self.assertIn(f"--namespace: '{ns}': {why}", r.stderr)
                self.assertEqual(r.stdout, "")
        self.assertFalse(os.path.exists(out))
        table = json.loads(read(self.table))
        table["entries"][0]["best"]["name"] = "warptile_f32_bm48_bn128"
        bad = os.path.join(self.dir, "bad.json")
        with open(bad, "w") as f:
            json.dump(table, f)
        r = run([BIN, "export", bad, "--format", "kit", "--out", out])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("'warptile_f32_bm48_bn128': no kernel family of this gemmtune has this config", r.stderr)
        self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    unittest.main()
