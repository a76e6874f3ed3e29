#!/usr/bin/env python3
"""The bad-input corpus under tests/data/bad/: malformed shapes, damaged tables and damaged search-space files.
Each is its documented exit code with one stderr line naming the argument or file; a damaged table given as
--out is refused and left as it was. (Regenerate the JSON corpus with tests/data/bad/make_corpus.py.)"""
import os
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.abspath(os.environ.get("GEMMTUNE_BIN", os.path.join(ROOT, "build", "gemmtune")))
BAD = os.path.join(ROOT, "tests", "data", "bad")


def run(*args):
    p = subprocess.run([BIN, *args], capture_output=True, timeout=120)
    return p.returncode, p.stderr.decode("utf-8", "replace")


def current_umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def corpus(kind):
    folder = os.path.join(BAD, kind)
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".json"))


class BadInput(unittest.TestCase):
    def one_line(self, err, what):
        lines = [l for l in err.splitlines() if l.strip()]
        self.assertEqual(len(lines), 1, f"{what}: {err!r}")
        return lines[0]

    def test_malformed_shapes(self):
        with open(os.path.join(BAD, "shapes.txt"), encoding="utf-8") as f:
            shapes = [l.rstrip("\n") for l in f if not l.startswith("#")]
        self.assertGreaterEqual(len(shapes), 60)
        for shape in shapes:
            rc, err = run("list", "--shape", shape)
            self.assertEqual(rc, 2, f"{shape!r}: {err}")
            self.assertIn("--shape", self.one_line(err, repr(shape)), repr(shape))

    def test_an_empty_option_value_is_refused_naming_the_option(self):
        # Taken as left out, each of these ran its default (--budget "" a 90 s tune) or a run nobody asked for.
        tune = ["--budget", "--total-budget", "--screen-warmup", "--shard", "--mode", "--activation", "--variants",
                "--kernels", "--device", "--space", "--seed", "--alpha", "--lda", "--dtype", "--out", "--strategy"]
        for option in tune:
            rc, err = run("--shape", "8x8x8", option, "")  # refused after parsing, before any work
            self.assertEqual(rc, 2, f"{option}: {err}")
            self.assertEqual(self.one_line(err, option),
                             f"gemmtune: error: {option}: '': an empty value (leave the option out for its default)")
        for args in (["lookup", "t.json", "--shape", "8x8x8", "--dtype", ""], ["merge", "", "-o", "out.json"],
                     ["compare", "a.json", "b.json", "--format", ""]):
            rc, err = run(*args)
            self.assertEqual(rc, 2, f"{args}: {err}")
            self.assertIn(": '': an empty value", self.one_line(err, str(args)))

    def test_an_unsigned_option_takes_no_sign_and_nothing_past_its_range(self):
        # CLI11 wraps -1 to 2^64 - 1 and saturates past it: each is refused as written, naming the option.
        cases = {"-1": "a sign where an unsigned integer is expected",
                 "+5": "a sign where an unsigned integer is expected",
                 "18446744073709551616": "past the largest value, 18446744073709551615",
                 "0x10": "not an unsigned decimal integer",
                 "010": "a leading zero (write the decimal value without it)"}
        for option in ["--seed", "--stride-a", "--lda", "--offset-c", "--bias-offset"]:
            for value, why in cases.items():
                rc, err = run("--shape", "8x8x8", f"{option}={value}")  # refused after parsing, before any work
                self.assertEqual(rc, 2, f"{option}={value}: {err}")
                self.assertEqual(self.one_line(err, option), f"gemmtune: error: {option}: '{value}': {why}")
        rc, err = run("list", "--shape", "8x8x8", "--lda", "18", "--kernels", "tiled_f32_bm32_bn32_bk8_tm1_tn1")
        self.assertEqual(rc, 0, err)

    def test_a_budget_of_nothing_is_refused_as_the_total_budget_is(self):
        for option in ["--budget", "--total-budget"]:
            for value in ["0", "0s", "-1"]:
                rc, err = run("--shape", "8x8x8", option, value)
                self.assertEqual(rc, 2, f"{option} {value}: {err}")
                self.assertIn(f"{option}: '{value}': ", self.one_line(err, option))

    def test_damaged_tables(self):
        files = corpus("tables")
        self.assertGreaterEqual(len([f for f in files if "/ok-" not in f]), 40)
        with tempfile.TemporaryDirectory() as d:
            for path in files:
                name = os.path.basename(path)
                rc, err = run("compare", path, path)
                if name.startswith("ok-"):
                    self.assertEqual(rc, 0, f"{name}: {err}")
                    continue
                self.assertEqual(rc, 2, f"{name}: {err}")
                self.assertIn(path, self.one_line(err, name), name)
                rc, err = run("lookup", path, "--shape", "4x4x4", "--any-device")
                self.assertEqual(rc, 2, f"lookup {name}: {err}")
                # As --out: refused before any work, and never overwritten.
                out = os.path.join(d, name)
                with open(path, "rb") as f:
                    original = f.read()
                with open(out, "wb") as f:
                    f.write(original)
                rc, err = run("--shape", "4x4x4", "--budget", "0.01", "--out", out)
                self.assertEqual(rc, 2, f"--out {name}: {err}")
                with open(out, "rb") as f:
                    self.assertEqual(f.read(), original, name)

    def test_damaged_space_files(self):
        files = corpus("spaces")
        self.assertGreaterEqual(len([f for f in files if "/ok-" not in f]), 40)
        for path in files:
            name = os.path.basename(path)
            rc, err = run("list", "--shape", "4x4x4", "--space", path)
            if name.startswith("ok-"):
                self.assertEqual(rc, 0, f"{name}: {err}")
                continue
            self.assertEqual(rc, 2, f"{name}: {err}")
            self.assertIn(path, self.one_line(err, name), name)

    def test_an_output_name_the_file_system_refuses_is_exit_5_naming_the_option(self):
        table = os.path.join(ROOT, "tests", "data", "tables", "llvmpipe.json")
        with tempfile.TemporaryDirectory() as d:
            too_long = os.path.join(d, "a" * 300 + ".json")  # past NAME_MAX: the file system refuses it
            no_room = os.path.join(d, "b" * 245 + ".json")   # fits, but NAME.journal.jsonl beside it would not
            for path, why in [(too_long, "File name too long"), (no_room, "to leave room for NAME.journal.jsonl")]:
                for args in [["--shape", "8x8x8", "--budget", "1", "--out", path], ["peak", "--out", path],
                             ["merge", table, "-o", path], ["report", table, "-o", path],
                             ["export", table, "--format", "cpp", "--out", path],
                             ["compare", table, table, "--out", path]]:
                    rc, err = run(*args)
                    self.assertEqual(rc, 5, f"{args[0]}: {err}")
                    line = self.one_line(err, args[0])
                    self.assertTrue(line.startswith(f"gemmtune: error: --out: '{path}': "), line)
                    self.assertIn(why, line)
            self.assertEqual(os.listdir(d), [])

    def test_a_kit_that_fails_midway_leaves_the_old_kit_whole(self):
        import resource
        import signal
        table = os.path.join(ROOT, "tests", "data", "tables", "nvidia-h200.json")
        with tempfile.TemporaryDirectory() as d:
            kit = os.path.join(d, "kit")
            rc, err = run("export", table, "--format", "kit", "--out", kit + "/")
            self.assertEqual(rc, 0, err)
            def contents():
                out = {}
                for n in os.listdir(kit):
                    with open(os.path.join(kit, n), "rb") as f:
                        out[n] = f.read()
                return out
            before = contents()
            self.assertGreaterEqual(len(before), 3)

            def small_files():  # gemm_rules.hpp (13 KB) is written, gemm_kit.hpp (1.5 MB) fails with EFBIG
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536))
            p = subprocess.run([BIN, "export", table, "--format", "kit", "--out", kit, "--namespace", "other"],
                               capture_output=True, text=True, timeout=60, preexec_fn=small_files)
            self.assertEqual(p.returncode, 5, p.stderr)
            self.assertEqual(sorted(os.listdir(d)), ["kit"])  # no temporary folder left
            self.assertEqual(contents(), before)
            self.assertEqual(os.stat(kit).st_mode & 0o777, 0o777 & ~current_umask())
            with open(os.path.join(kit, "stray.txt"), "w") as f:
                f.write("mine")
            rc, err = run("export", table, "--format", "kit", "--out", kit)
            self.assertEqual(rc, 5, err)
            self.assertIn("holds 'stray.txt', which this command does not write", self.one_line(err, "stray"))
            os.remove(os.path.join(kit, "stray.txt"))
            rc, err = run("export", table, "--format", "kit", "--out", kit, "--namespace", "other")
            self.assertEqual(rc, 0, err)  # a kit over a kit: replaced whole
            self.assertNotEqual(contents()["gemm_rules.hpp"], before["gemm_rules.hpp"])
            self.assertEqual(sorted(os.listdir(d)), ["kit"])

    def test_a_message_names_the_option_the_user_wrote_and_its_value(self):
        cases = [(["--shape", "5x5x5,,6x6x6"], "--shape: '5x5x5,,6x6x6': item 2 is empty (expected MxNxK or MxNxKxB)"),
                 (["--shape", "8x8x8x3", "--stride-a", "9223372036854775807"],
                  "--stride-a: '9223372036854775807': the operand's last element passes 2^64 elements"),
                 (["--shape", "8x8x8x2", "--offset-b", "18446744073709551600"],
                  "--offset-b: '18446744073709551600': the operand's last element passes 2^64 elements"),
                 (["--shape", "4x64x64", "--dtype", "f16:q4_0"],
                  "--layout: 'nn': B in q4_0 blocks of 32 along k is stored N x K: layouts nt and tt"),
                 (["--shape", "4x64x40", "--dtype", "f32:q8_0", "--layout", "nt"],
                  "--shape: '4x64x40': B in q8_0 blocks of 32 along k: K must be a multiple of 32"),
                 (["--shape", "4x64x64", "--dtype", "f16:q8_0", "--layout", "nt", "--ldb", "70"],
                  "--ldb: '70': B in q8_0 blocks of 32 along k: a multiple of 32 elements")]
        for args, expected in cases:
            rc, err = run(*args, "--budget", "1")
            self.assertEqual(rc, 2, f"{args}: {err}")
            self.assertEqual(self.one_line(err, str(args)), f"gemmtune: error: {expected}")

    def test_json_syntax_errors_name_line_and_column(self):
        rc, err = run("compare", os.path.join(BAD, "tables", "trailing-comma.json"), os.path.join(BAD, "tables", "trailing-comma.json"))
        self.assertRegex(err, r"trailing-comma\.json:\d+:\d+: invalid JSON")


if __name__ == "__main__":
    unittest.main(verbosity=2)
