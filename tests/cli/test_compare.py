#!/usr/bin/env python3
"""gemmtune compare end to end on tables written by gemmtune itself (lavapipe) and edited copies of them:
exit codes 0/1/2/3, every format, --out. No GPU work in compare itself."""
import copy
import json
import os
import subprocess
import tempfile
import unittest
import xml.etree.ElementTree as ET

BIN = os.path.abspath(os.environ.get("GEMMTUNE_BIN", "build/gemmtune"))


def write(path, table):
    with open(path, "w") as f:
        json.dump(table, f)


class Compare(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.base_path = os.path.join(cls.dir.name, "base.json")
        p = subprocess.run([BIN, "--shape", "4x16x16,8x16x16", "--kernels", "fewrows_f32_cols8_slices4_unroll1_*",
                            "--samples", "5", "--out", cls.base_path], capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        with open(cls.base_path) as f:
            cls.base = json.load(f)
        # Lavapipe's samples of one config spread by up to 3x under load, so a copy made 3x slower could overlap
        # them: the base's samples are set within 4 % of their median, which is what the edits below are judged by.
        for e in cls.base["entries"]:
            b = e["best"]
            b["samples_us"] = [b["median_us"] * (1 + 0.01 * (i - 2)) for i in range(len(b["samples_us"]))]
        write(cls.base_path, cls.base)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def compare(self, fresh, *extra):
        path = os.path.join(self.dir.name, "new.json")
        write(path, fresh)
        p = subprocess.run([BIN, "compare", self.base_path, path, *extra], capture_output=True, text=True)
        return p.returncode, p.stdout, p.stderr

    def test_identical_tables_pass(self):
        rc, out, _ = self.compare(self.base)
        self.assertEqual(rc, 0, out)
        self.assertIn("0 regressions", out)
        # --also writes the same comparison in more formats; a bad one is refused before anything is written.
        md, xml = os.path.join(self.dir.name, "c.md"), os.path.join(self.dir.name, "c.xml")
        rc, out, _ = self.compare(self.base, "--also", "md=" + md, "--also", "junit=" + xml)
        self.assertEqual(rc, 0, out)
        with open(md) as f:
            self.assertIn("0 regressions", f.read())
        self.assertEqual(ET.parse(xml).getroot().get("failures"), "0")
        for bad in ["xml=" + md, "md", "md="]:
            rc, _, err = self.compare(self.base, "--also", bad)
            self.assertEqual(rc, 2, err)
            self.assertIn("--also", err)

    def test_a_slower_entry_fails_with_every_format(self):
        fresh = copy.deepcopy(self.base)
        best = fresh["entries"][0]["best"]
        best["median_us"] *= 3
        best["cv"] = 0.01
        # Every sample 3x slower (lavapipe's samples of one config spread by up to 2x): the rank test agrees.
        best["samples_us"] = [v * 3 for v in best["samples_us"]]
        self.base_cv_low()
        rc, out, _ = self.compare(fresh)
        self.assertEqual(rc, 1, out)
        self.assertIn("regressed", out)
        rc, out, _ = self.compare(fresh, "--format", "md")
        self.assertIn("**regressed**", out)
        rc, out, _ = self.compare(fresh, "--format", "json")
        self.assertEqual(json.loads(out)["regressions"], 1)
        report = os.path.join(self.dir.name, "junit.xml")
        rc, out, _ = self.compare(fresh, "--format", "junit", "--out", report)
        self.assertEqual((rc, out), (1, ""))
        suite = ET.parse(report).getroot()
        self.assertEqual(suite.get("failures"), "1")
        self.assertEqual(len(suite.findall("testcase")), 2)
        # The same slowdown under a 250 % threshold passes.
        rc, _, _ = self.compare(fresh, "--threshold", "250%")
        self.assertEqual(rc, 0)

    def test_a_slower_median_the_samples_do_not_bear_out_passes(self):
        # The table's samples are the evidence: a median moved past the threshold with the same samples is noise.
        fresh = copy.deepcopy(self.base)
        fresh["entries"][0]["best"]["median_us"] *= 1.5
        rc, out, _ = self.compare(fresh)
        self.assertEqual(rc, 0, out)
        self.assertIn("rank test", out)
        # Without samples in the tables the noise band decides, as for tables written before they were kept.
        base = copy.deepcopy(self.base)
        for table in (fresh, base):
            for e in table["entries"]:
                e["best"].pop("samples_us")
                e["best"]["cv"] = 0.01
        write(self.base_path, base)
        try:
            rc, out, _ = self.compare(fresh)
            self.assertEqual(rc, 1, out)
            self.assertIn("noise", out)
        finally:
            write(self.base_path, self.base)

    def test_rerun_clears_what_this_device_does_not_reproduce_and_keeps_what_it_does(self):
        # Lavapipe's samples of one config spread by 2x, and sample-wise interleaved reruns of one config against
        # itself differed by up to 12 % here: a 3x slowdown against a 50 % threshold is beyond doubt either way.
        fresh = copy.deepcopy(self.base)
        best = fresh["entries"][0]["best"]
        best["median_us"] *= 3
        best["samples_us"] = [v * 3 for v in best["samples_us"]]
        rc, out, _ = self.compare(fresh, "--threshold", "50%")
        self.assertEqual(rc, 1, out)
        # The same config timed again, interleaved with itself: not a regression on this device.
        rc, out, err = self.compare(fresh, "--rerun", "--threshold", "50%")
        self.assertEqual(rc, 0, out + err)
        self.assertIn("rerun", out)
        self.assertIn("compare --rerun:", err)
        # A config that really is slower (the naive kernel at a size where the tiled one wins) stays a regression.
        base_path = os.path.join(self.dir.name, "tiled.json")
        p = subprocess.run([BIN, "--shape", "64x64x512", "--kernels", "tiled_f32_bm32_bn32_bk8_tm4_tn4",
                            "--samples", "5", "--out", base_path], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(base_path) as f:
            tiled = json.load(f)
        # As the base's in setUpClass: samples within 4 % of their median, so the 3x copy's cannot overlap them.
        b = tiled["entries"][0]["best"]
        b["samples_us"] = [b["median_us"] * (1 + 0.01 * (i - 2)) for i in range(len(b["samples_us"]))]
        write(base_path, tiled)
        slower = copy.deepcopy(tiled)
        best = slower["entries"][0]["best"]
        naive_path = os.path.join(self.dir.name, "naive-tuned.json")  # for the naive kernel's hash in this build
        p = subprocess.run([BIN, "--shape", "64x64x512", "--variants", "naive", "--samples", "3", "--out", naive_path],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(naive_path) as f:
            naive_hash = json.load(f)["entries"][0]["best"]["kernel_hash"]
        best.update(variant="naive", name="naive_f32_wg64", params={"wg": 64}, median_us=best["median_us"] * 3,
                    kernel_hash=naive_hash)
        best["samples_us"] = [v * 3 for v in best["samples_us"]]
        new_path = os.path.join(self.dir.name, "naive.json")
        write(new_path, slower)
        p = subprocess.run([BIN, "compare", base_path, new_path, "--rerun", "--threshold", "50%"], capture_output=True,
                           text=True)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("regressed", p.stdout)
        self.assertIn("rerun +", p.stdout)

    def test_rerun_keeps_a_regression_it_cannot_reproduce(self):
        # A rerun times this build's kernels on this driver for both sides: where the baseline's kernel or driver
        # was another, timing this build twice would clear a real slowdown, so the entry stays a regression.
        fresh = copy.deepcopy(self.base)
        best = fresh["entries"][0]["best"]
        best["median_us"] *= 3
        best["samples_us"] = [v * 3 for v in best["samples_us"]]
        for change, fragment in [(lambda b: b["entries"][0]["best"].update(kernel_hash="fnv1a64:0123456789abcdef"),
                                  "BASE's kernel (fnv1a64:0123456789abcdef) is not this build's"),
                                 (lambda b: b["device"].update(driver_version="0.0.0"), "BASE ran on driver 0.0.0"),
                                 (lambda b: b["entries"][0]["best"].update(name="future_f32_x1"),
                                  "BASE's config future_f32_x1 is not one this build has")]:
            base = copy.deepcopy(self.base)
            change(base)
            write(self.base_path, base)
            try:
                rc, out, err = self.compare(fresh, "--rerun", "--threshold", "50%")
                self.assertEqual(rc, 1, out + err)
                self.assertIn("regressed", out)
                self.assertIn("not rerun: " + fragment, out)
            finally:
                write(self.base_path, self.base)

    def base_cv_low(self):
        base = copy.deepcopy(self.base)
        for e in base["entries"]:
            e["best"]["cv"] = 0.01
        write(self.base_path, base)

    def test_corrupt_or_unreadable_input_is_exit_2_never_a_pass(self):
        path = os.path.join(self.dir.name, "corrupt.json")
        with open(path, "w") as f:
            f.write('{"schema_version": 4, "entries": [')
        for args in ([path, self.base_path], [self.base_path, path], [os.path.join(self.dir.name, "none.json"), self.base_path]):
            p = subprocess.run([BIN, "compare", *args], capture_output=True, text=True)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
        rc, _, err = self.compare(self.base, "--threshold", "lots")
        self.assertEqual(rc, 2, err)
        rc, _, err = self.compare(self.base, "--format", "xml")
        self.assertEqual(rc, 2, err)

    def test_another_device_is_exit_3_unless_allowed(self):
        fresh = copy.deepcopy(self.base)
        fresh["device"]["device_id"] += 1
        rc, _, err = self.compare(fresh)
        self.assertEqual(rc, 3, err)
        self.assertIn("--allow-device-mismatch", err)
        rc, _, err = self.compare(fresh, "--allow-device-mismatch")
        self.assertEqual(rc, 0, err)

    def test_missing_and_new_entries_are_listed(self):
        fresh = copy.deepcopy(self.base)
        moved = fresh["entries"].pop()
        moved["m"] = 3
        fresh["entries"].append(moved)
        rc, out, _ = self.compare(fresh)
        self.assertEqual(rc, 0, out)
        self.assertIn("missing", out)
        self.assertIn("new", out)


class ShardMerge(unittest.TestCase):
    def test_three_shards_merged_equal_one_whole_run(self):
        args = ["--shape", "4x16x16,5x16x16,6x16x16", "--dtype", "f32,f16", "--kernels", "fewrows_*_cols8_slices4_unroll1_vec1",
                "--samples", "3", "--budget", "5"]
        with tempfile.TemporaryDirectory() as d:
            procs = [subprocess.Popen([BIN, *args, "--shard", f"{i}/3", "--out", os.path.join(d, f"s{i}.json")],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for i in range(3)]
            for p in procs:
                _, err = p.communicate(timeout=300)
                self.assertEqual(p.returncode, 0, err)
            whole = os.path.join(d, "whole.json")
            self.assertEqual(subprocess.run([BIN, *args, "--out", whole], capture_output=True).returncode, 0)

            def keys(path):
                with open(path) as f:
                    return sorted((e["m"], e["dtype"]) for e in json.load(f)["entries"])
            parts = [keys(os.path.join(d, f"s{i}.json")) for i in range(3)]
            self.assertEqual([len(p) for p in parts], [2, 2, 2])  # a deterministic third each
            merged = os.path.join(d, "merged.json")
            p = subprocess.run([BIN, "merge", *[os.path.join(d, f"s{i}.json") for i in range(3)], "-o", merged],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(keys(merged), keys(whole))
            # Tables of another device are refused; bad shards are usage errors.
            with open(os.path.join(d, "s0.json")) as f:
                other = json.load(f)
            other["device"]["name"] = "another GPU"
            write(os.path.join(d, "other.json"), other)
            p = subprocess.run([BIN, "merge", merged, os.path.join(d, "other.json"), "-o", os.path.join(d, "x.json")],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 3, p.stderr)
            self.assertFalse(os.path.exists(os.path.join(d, "x.json")))
            for bad in ["3/3", "1-3", "a/b", "0/0"]:
                p = subprocess.run([BIN, "--shape", "4x4x4", "--shard", bad], capture_output=True, text=True)
                self.assertEqual(p.returncode, 2, bad)


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
QUERIES = [(4096, 4096, 4096, "f16", "nn"), (1000, 1000, 1000, "f16", "nn"), (1, 51865, 768, "f32", "nn"),
           (2, 50000, 800, "f32", "nn"), (16, 50000, 800, "f32", "nn"), (128, 768, 3072, "bf16", "nn"),
           (100, 700, 300, "f32", "nn"), (4, 3072, 768, "f16", "nn"), (64, 64, 64, "f32", "tt"), (64, 64, 64, "f16", "nt"),
           (5, 16, 16, "f16", "nn"), (4, 16, 16, "f32", "nn"), (3000, 10, 99999, "f32", "nn"),
           # Near the families' shape needs: split-k range boundaries, row-mma's K multiple of 8 and N >= 16, rows of op(A).
           (128, 768, 193, "f32", "nn"), (128, 768, 520, "f16", "nn"), (128, 3072, 600, "bf16", "nn"), (8, 4096, 14337, "f16", "nt"),
           (8, 4096, 14336, "f16", "nt"), (16, 4096, 14336, "bf16", "nt"), (17, 4096, 14336, "f16", "nt"), (8, 12, 4096, "f16", "nt"),
           (9, 51865, 768, "f32", "nn"), (2, 51865, 768, "f16", "nn"), (3, 4095, 2000, "f32", "nt")]
# The batch too: exact needs it, nearest counts ln batch (gemmtune lookup and the header's lookup alike).
QUERIES = [q + (1,) for q in QUERIES] + [(1024, 768, 3072, "f32", "nn", 4), (4096, 4096, 4096, "f16", "nn", 2),
                                         (128, 768, 3072, "f32", "nn", 32)]


class Export(unittest.TestCase):
    def test_the_compiled_header_chooses_as_lookup_does(self):
        tables = [os.path.join(ROOT, "tests", "data", "tables", name) for name in ("nvidia-h200.json", "llvmpipe.json")]
        with tempfile.TemporaryDirectory() as d:
            for n, table in enumerate(tables):
                header = os.path.join(d, f"tuned{n}.hpp")
                p = subprocess.run([BIN, "export", table, "--format", "cpp", "--namespace", "tuned", "--out", header],
                                   capture_output=True, text=True)
                self.assertEqual(p.returncode, 0, p.stderr)
                src = os.path.join(d, f"main{n}.cpp")
                with open(src, "w") as f:
                    f.write(f'#include "{header}"\n#include <cstdio>\nint main() {{\n')
                    for m, nn, k, dt, lay, b in QUERIES:
                        f.write(f'  {{ auto c = tuned::lookup({m}, {nn}, {k}, "{dt}", "{lay}", {b}); '
                                f'std::printf("%s %s\\n", c.config.c_str(), std::string(c.rule).c_str()); }}\n')
                    f.write("}\n")
                exe = os.path.join(d, f"main{n}")
                p = subprocess.run(["g++", "-std=c++17", "-Wall", "-Wextra", "-Werror", "-o", exe, src], capture_output=True, text=True)
                self.assertEqual(p.returncode, 0, p.stderr)
                compiled = subprocess.run([exe], capture_output=True, text=True, check=True).stdout.splitlines()
                for (m, nn, k, dt, lay, b), line in zip(QUERIES, compiled):
                    p = subprocess.run([BIN, "lookup", table, "--shape", f"{m}x{nn}x{k}x{b}", "--dtype", dt, "--layout", lay,
                                        "--any-device", "--json"], capture_output=True, text=True)
                    self.assertEqual(p.returncode, 0, p.stderr)
                    j = json.loads(p.stdout)
                    self.assertEqual(line, f'{j["config"]} {j["rule"]}', (table, m, nn, k, dt, lay, b))
            p = subprocess.run([BIN, "export", tables[0], "--namespace", "9bad"], capture_output=True, text=True)
            self.assertEqual(p.returncode, 2)

    def test_lookup_tells_a_stale_kernel(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.json")
            subprocess.run([BIN, "--shape", "4x16x16", "--kernels", "fewrows_f32_cols8_slices4_unroll1_vec1", "--budget", "1",
                            "--samples", "3", "--out", path], check=True, capture_output=True)
            lookup = [BIN, "lookup", path, "--shape", "4x16x16", "--any-device"]
            self.assertEqual(json.loads(subprocess.run(lookup + ["--json"], capture_output=True, text=True).stdout)["kernel"], "current")
            with open(path) as f:
                table = json.load(f)
            self.assertRegex(table["entries"][0]["best"]["kernel_hash"], "^fnv1a64:[0-9a-f]{16}$")
            table["entries"][0]["best"]["kernel_hash"] = "fnv1a64:0123456789abcdef"
            write(path, table)
            p = subprocess.run(lookup, capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("(stale)", p.stdout)
            p = subprocess.run([BIN, "--shape", "5x16x16", "--kernels", "fewrows_f32_cols8_slices4_unroll1_vec1", "--budget", "1",
                                "--samples", "3", "--out", path], capture_output=True, text=True)
            self.assertIn("1 entries were tuned with kernels that have changed since", p.stderr)

    def test_lookup_refuses_a_table_of_another_device(self):
        p = subprocess.run([BIN, "lookup", os.path.join(ROOT, "tests", "data", "tables", "nvidia-h200.json"), "--shape", "64x64x64"],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertIn("--any-device", p.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
