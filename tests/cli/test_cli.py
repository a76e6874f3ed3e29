#!/usr/bin/env python3
"""The gemmtune binary end to end: exit codes, one-line errors, the tuning table on disk, devices, linkage."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

BIN = os.path.abspath(os.environ.get("GEMMTUNE_BIN", "build/gemmtune"))


def load_json(path):
    with open(path) as f:
        return json.load(f)


def run(*args, cwd=None):
    p = subprocess.run([BIN, *args], capture_output=True, text=True, cwd=cwd, timeout=600)
    return p.returncode, p.stdout, p.stderr


class BadInput(unittest.TestCase):
    def expect(self, code, args, *fragments):
        rc, out, err = run(*args)
        self.assertEqual(rc, code, f"{args}: rc {rc}, stderr {err!r}")
        lines = [l for l in err.splitlines() if l.strip()]
        self.assertEqual(len(lines), 1, f"{args}: expected one stderr line, got {err!r}")
        for f in fragments:
            self.assertIn(f, lines[0], f"{args}: {lines[0]!r}")

    def test_malformed_shapes_exit_2_naming_argument_and_value(self):
        for shape in ["5x5", "5x5x5x5x5", "0x5x5", "-1x5x5", "5X5X5", "1e3x5x5", "", "9223372036854775808x1x1"]:
            self.expect(2, ["--shape", shape], "--shape", f"'{shape}'")

    def test_bad_flag_values_exit_2(self):
        self.expect(2, ["--shape", "8x8x8", "--dtype", "f64"], "--dtype", "'f64'")
        self.expect(2, ["--shape", "8x8x8", "--samples", "-1"], "--samples")
        self.expect(2, ["--shape", "8x8x8", "--samples", "abc"], "--samples")
        self.expect(2, ["--shape", "8x8x8", "--budget", "-3"], "--budget")
        self.expect(2, ["--shape", "8x8x8", "--device", "99"], "--device", "'99'")
        self.expect(2, ["--shape", "8x8x8", "--device", "no-such-gpu"], "--device")
        self.expect(2, ["--frobnicate"], "frobnicate")

    def test_bad_operation_flags_exit_2_before_any_vulkan_work(self):
        self.expect(2, ["--shape", "8x8x8", "--layout", "nx"], "--layout", "'nx'")
        self.expect(2, ["--shape", "8x8x8", "--activation", "gelu"], "--activation", "'gelu'")
        self.expect(2, ["--shape", "8x8x8", "--mode", "slow"], "--mode", "'slow'")
        self.expect(2, ["--shape", "8x8x8", "--variants", "tiled,magic"], "--variants", "'magic'")
        self.expect(2, ["--shape", "8x8x8", "--lda", "7"], "--lda", "'7'", "below the 8 columns of A")
        self.expect(2, ["--shape", "8x8x8", "--layout", "nt", "--ldb", "5"], "--ldb", "'5'")
        self.expect(2, ["--shape", "8x8x8x2", "--stride-c", "10"], "--stride-c", "overlap")
        self.expect(2, ["--shape", "8x8x8", "--alpha", "nan"], "--alpha")
        self.expect(2, ["--shape", "8x8x8", "--offset-a", "-1"], "--offset-a")

    def test_missing_shape_exits_2(self):
        rc, _, err = run()
        self.assertEqual(rc, 2)
        self.assertIn("--shape", err.splitlines()[-1])

    def test_unwritable_outputs_exit_5_before_any_work(self):
        with tempfile.TemporaryDirectory() as d:
            self.expect(5, ["--shape", "8x8x8", "--out", os.path.join(d, "missing", "t.json")], "does not exist")
            self.expect(5, ["--shape", "8x8x8", "--out", d], "is a directory")

    def test_malformed_existing_table_is_refused_and_kept(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.json")
            with open(path, "w") as f:
                f.write('{"schema_version": 1,,}')
            self.expect(2, ["--shape", "8x8x8", "--out", path], path + ":1:")
            with open(path) as f:
                self.assertEqual(f.read(), '{"schema_version": 1,,}')


class Tune(unittest.TestCase):
    def test_every_dtype_gives_a_verified_winner_and_a_valid_table(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.json")
            rc, out, err = run("--shape", "33x17x65", "--dtype", "f32,f16,bf16", "--budget", "6", "--samples", "3",
                               "--out", path)
            self.assertEqual(rc, 0, err)
            self.assertIn("best: tiled_f32_", out)
            table = load_json(path)
            self.assertEqual(table["schema_version"], 4)
            self.assertEqual(table["tool"]["name"], "gemmtune")
            for key in ["name", "vendor_id", "device_id", "driver_version", "api_version", "type", "pipeline_cache_uuid"]:
                self.assertIn(key, table["device"])
            self.assertEqual([e["dtype"] for e in table["entries"]], ["f32", "f16", "bf16"])
            bounds = {"f32": 1e-5, "f16": 2e-3, "bf16": 8e-3}
            for e in table["entries"]:
                self.assertEqual((e["m"], e["n"], e["k"], e["batch"], e["layout"]), (33, 17, 65, 1, "nn"))
                best = e["best"]
                self.assertEqual(best["variant"], "tiled")
                self.assertTrue(best["name"].startswith(f"tiled_{e['dtype']}_"))
                self.assertEqual(best["bound"], bounds[e["dtype"]])
                self.assertLessEqual(best["error"], best["bound"])
                self.assertGreater(best["median_us"], 0)
                self.assertGreaterEqual(best["median_us"], best["min_us"])
                self.assertEqual(set(best["params"]), {"bm", "bn", "bk", "tm", "tn"})
                c = e["candidates"]
                self.assertGreater(c["evaluated"], 0)
                self.assertEqual(c["failed"], 0)
                if e["runner_up"] is not None:
                    # The fastest wins, unless within the noise band (a tie), where the simpler config may be slower.
                    band = e["noise_band"] if e["tie"] else 0.0
                    self.assertLessEqual(best["median_us"], e["runner_up"]["median_us"] * (1 + band))

            # A second run for another shape keeps the first entries (upsert) and leaves no temp file.
            rc, _, err = run("--shape", "8x8x8x2", "--budget", "1", "--samples", "3", "--out", path)
            self.assertEqual(rc, 0, err)
            table = load_json(path)
            self.assertEqual(len(table["entries"]), 4)
            self.assertEqual(table["entries"][3]["batch"], 2)
            self.assertEqual(sorted(os.listdir(d)), ["t.json", "t.json.journal.jsonl", "t.json.lock"])

    def test_the_operation_is_the_table_key(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.json")
            rc, out, err = run("--shape", "6x40x150x2", "--layout", "nt,tn", "--alpha", "0.5", "--beta", "1",
                               "--ldc", "43", "--offset-a", "3", "--stride-b", "0", "--bias", "--activation", "gelu-tanh",
                               "--mode", "deterministic", "--budget", "8", "--samples", "3", "--out", path)
            self.assertEqual(rc, 0, err)
            entries = load_json(path)["entries"]
            self.assertEqual([e["layout"] for e in entries], ["nt", "tn"])
            nt, tn = entries
            self.assertEqual(nt["ld"], {"a": 150, "b": 150, "c": 43})
            self.assertEqual(tn["ld"], {"a": 6, "b": 40, "c": 43})
            self.assertEqual(nt["offset"]["a"], 3)
            self.assertEqual(nt["batch_stride"]["b"], 0)
            self.assertEqual((nt["alpha"], nt["beta"], nt["mode"]), (0.5, 1.0, "deterministic"))
            self.assertEqual(nt["epilogue"], {"bias": True, "bias_offset": 0, "activation": "gelu-tanh"})
            for e in entries:
                self.assertIsNotNone(e["best"], e)
                self.assertEqual(e["unsupported"], "")
            # fewrows reads A as stored M x K: not applicable to tn, and the table says why; coopmat serves only
            # 16-bit inputs in fast mode.
            self.assertEqual([v["variant"] for v in tn["not_applicable"]], ["fewrows", "coopmat"])
            self.assertIn("transposed", tn["not_applicable"][0]["reason"])
            self.assertIn("f32 inputs", tn["not_applicable"][1]["reason"])
            self.assertIn("not applicable", out)

    def test_an_operand_past_the_device_limit_is_exit_3_and_recorded(self):
        devices = json.loads(run("devices", "--json")[1])
        limit = devices[0]["limits"]["max_storage_buffer_range"]
        n = limit // (4 * 768) + 1  # B (768 x n f32) one row past the limit
        if n >= 2**31:
            self.skipTest("this device binds buffers too large to exceed here")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.json")
            rc, _, err = run("--shape", f"1x{n}x768", "--budget", "1", "--out", path)
            self.assertEqual(rc, 3, err)
            self.assertIn("operand B needs", err)
            self.assertIn("maxStorageBufferRange", err)
            entry = load_json(path)["entries"][0]
            self.assertIsNone(entry["best"])
            self.assertIn("maxStorageBufferRange", entry["unsupported"])

    def test_default_output_is_results_slash_device(self):
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "results"))
            rc, _, err = run("--shape", "4x4x4", "--budget", "0", "--samples", "3", cwd=d)
            self.assertEqual(rc, 0, err)
            files = sorted(os.listdir(os.path.join(d, "results")))
            self.assertEqual(len(files), 3)
            self.assertTrue(files[0].endswith(".json"))
            self.assertEqual(files[1:], [files[0] + ".journal.jsonl", files[0] + ".lock"])


class List(unittest.TestCase):
    def test_lists_candidates_and_with_why_the_reasons_without_running(self):
        rc, out, err = run("list", "--shape", "64x64x64", "--dtype", "f16", "--why")
        self.assertEqual(rc, 0, err)
        header = out.splitlines()[0]
        self.assertIn("64x64x64 f16 nn", header)
        names = [l.strip() for l in out.splitlines()[1:] if l.startswith("  tiled_")]
        self.assertEqual(len(names), int(header.split(": ")[1].split()[0]))
        self.assertIn("pruned tiled_f16_bm32_bn64_bk8_tm1_tn1: invocations:", out)
        self.assertIn("not applicable splitk: K = 64", out)
        self.assertIn("not applicable coopmat:", out)

    def test_kernels_glob_restricts_list_and_tune(self):
        rc, out, err = run("list", "--shape", "64x64x64", "--kernels", "tiled_f32_bm32_bn32_*")
        self.assertEqual(rc, 0, err)
        names = [l.strip() for l in out.splitlines()[1:]]
        self.assertEqual(len(names), 48)
        self.assertTrue(all(n.startswith("tiled_f32_bm32_bn32_") for n in names))
        self.assertIn("left out by --kernels", out.splitlines()[0])
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.json")
            rc, _, err = run("--shape", "20x20x20", "--kernels", "fewrows_*", "--budget", "1", "--samples", "3",
                             "--out", path)
            self.assertEqual(rc, 1, err)  # fewrows cannot serve M = 20: no verified candidate
            rc, _, err = run("--shape", "4x20x20", "--kernels", "fewrows_f32_cols8_*", "--budget", "1", "--samples", "3",
                             "--out", path)
            self.assertEqual(rc, 0, err)
            best = load_json(path)["entries"][-1]["best"]
            self.assertTrue(best["name"].startswith("fewrows_f32_cols8_"), best["name"])

    def test_cold_and_hot_results_are_separate_entries(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.json")
            for extra in ([], ["--cold"]):
                rc, out, err = run("--shape", "4x64x64", "--kernels", "fewrows_*", "--budget", "1", "--samples", "3",
                                   "--out", path, *extra)
                self.assertEqual(rc, 0, err)
            self.assertIn("--cold", [l for l in out.splitlines() if "rerun: " in l][0])
            entries = load_json(path)["entries"]
            self.assertEqual([e["cold"] for e in entries], [False, True])
            self.assertTrue(all(e["best"] is not None for e in entries))


class Bench(unittest.TestCase):
    def test_every_result_ends_with_a_line_that_reruns_it(self):
        with tempfile.TemporaryDirectory() as d:
            rc, out, err = run("--shape", "20x30x40x2", "--layout", "nt", "--beta", "1", "--ldc", "33", "--offset-a", "3",
                               "--stride-b", "0", "--bias", "--activation", "relu", "--budget", "1", "--samples", "3",
                               "--out", os.path.join(d, "t.json"))
            self.assertEqual(rc, 0, err)
            best = [l.split("best: ")[1].split(",")[0] for l in out.splitlines() if "best: " in l][0]
            rerun = [l.split("rerun: gemmtune ")[1] for l in out.splitlines() if "rerun: " in l][0]
            self.assertIn("--config " + best, rerun)
            for flag in ["--layout nt", "--beta 1", "--ldc 33", "--offset-a 3", "--stride-b 0", "--bias", "--activation relu"]:
                self.assertIn(flag, rerun)
            rc, out, err = run(*rerun.split(), "--samples", "3")
            self.assertEqual(rc, 0, err)
            self.assertIn(best + ": median", out)
            self.assertEqual(sorted(os.listdir(d)), ["t.json", "t.json.journal.jsonl", "t.json.lock"])  # bench writes none

    def test_bad_or_unusable_configs(self):
        rc, _, err = run("bench", "--config", "tiled_f64_bm32", "--shape", "8x8x8")
        self.assertEqual(rc, 2, err)
        rc, _, err = run("bench", "--config", "tiled_f32_bm33_bn32_bk8_tm1_tn1", "--shape", "8x8x8")
        self.assertEqual(rc, 2, err)
        self.assertIn("no config of tiled has this name", err)
        rc, _, err = run("bench", "--config", "fewrows_f32_cols8_slices4_unroll4_vec1", "--shape", "80x8x8")
        self.assertEqual(rc, 3, err)
        self.assertIn("M = 80", err)


class Peak(unittest.TestCase):
    def test_measures_stores_in_the_device_section_and_survives_tuning(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.json")
            rc, out, err = run("peak", "--json", "--samples", "1", "--out", path)
            self.assertEqual(rc, 0, err)
            measured = json.loads(out)
            self.assertGreater(measured["f32_tflops"], 0)
            self.assertGreater(measured["copy_gbps"], 0)
            self.assertIsNone(measured["coopmat_f16_tflops"])  # lavapipe has no cooperative matrices
            peak = load_json(path)["device"]["peak"]
            self.assertEqual(peak["f32_tflops"], measured["f32_tflops"])
            self.assertIsNone(peak["coopmat_f16_tflops"])
            rc, _, err = run("--shape", "4x4x4", "--budget", "0", "--samples", "3", "--out", path)
            self.assertEqual(rc, 0, err)
            table = load_json(path)
            self.assertEqual(table["device"]["peak"], peak)
            self.assertEqual(len(table["entries"]), 1)
            best = table["entries"][0]["best"]
            self.assertIn(best["bound_by"], ["compute", "memory"])
            self.assertGreater(best["ceiling_fraction"], 0)

    def test_a_table_of_another_device_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.json")
            self.assertEqual(run("peak", "--samples", "1", "--out", path)[0], 0)
            table = load_json(path)
            table["device"]["name"] = "Some Other GPU"
            with open(path, "w") as f:
                json.dump(table, f)
            rc, _, err = run("peak", "--samples", "1", "--out", path)
            self.assertEqual(rc, 2, err)
            self.assertIn("another device", err)
            self.assertEqual(load_json(path)["device"]["name"], "Some Other GPU")


class Devices(unittest.TestCase):
    def test_text_and_json(self):
        rc, out, err = run("devices")
        self.assertEqual(rc, 0, err)
        self.assertIn("timestamps", out)
        rc, out, err = run("devices", "--json")
        self.assertEqual(rc, 0, err)
        devices = json.loads(out)
        self.assertGreaterEqual(len(devices), 1)
        for key in ["name", "vendor_id", "driver_version", "api_version", "type", "limits", "subgroup_size", "timestamps"]:
            self.assertIn(key, devices[0])


class Linkage(unittest.TestCase):
    def test_only_system_runtime_libraries(self):
        out = subprocess.run(["ldd", BIN], capture_output=True, text=True).stdout
        allowed = ("linux-vdso", "ld-linux", "libc.so", "libm.so", "libstdc++", "libgcc_s")
        extra = [l.split()[0] for l in out.splitlines() if l.strip() and not any(a in l for a in allowed)]
        self.assertEqual(extra, [], out)


if __name__ == "__main__":
    unittest.main(verbosity=2)
