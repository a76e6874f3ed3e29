#!/usr/bin/env python3
"""The gemmtune binary end to end: exit codes, one-line errors, the tuning table on disk, devices, linkage."""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import unittest

BIN = os.path.abspath(os.environ.get("GEMMTUNE_BIN", "build/gemmtune"))


def load_json(path):
    with open(path) as f:
        return json.load(f)


def run(*args, cwd=None):
    p = subprocess.run([BIN, *args], capture_output=True, text=True, cwd=cwd, timeout=600)
    return p.returncode, p.stdout, p.stderr


def read_terminal(master):
    """What a child writes to a pseudo-terminal until it closes it: (arrival time, bytes) per read."""
    import time
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            return
        if not chunk:
            return
        yield time.monotonic(), chunk


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
        # tune takes at least 3 rounds of finals: fewer is refused, not silently raised (bench takes any count).
        self.expect(2, ["--shape", "8x8x8", "--samples", "2"], "--samples", "'2'", "at least 3")
        self.expect(2, ["--shape", "8x8x8", "--budget", "-3"], "--budget")
        self.expect(2, ["--shape", "8x8x8", "--compile-threads", "0"], "--compile-threads")
        self.expect(2, ["--shape", "8x8x8", "--build-workers", "65"], "--build-workers")
        self.expect(2, ["--shape", "8x8x8", "--screen-warmup", "61"], "--screen-warmup", "'61'", "at most 60 s")
        self.expect(2, ["--shape", "8x8x8", "--screen-warmup", "-1"], "--screen-warmup")
        self.expect(2, ["--shape", "8x8x8", "--screen-warmup", "fast"], "--screen-warmup", "'fast'")
        self.expect(2, ["--shape", "8x8x8", "--device", "99"], "--device", "'99'")
        self.expect(2, ["--shape", "8x8x8", "--device", "no-such-gpu"], "--device")
        self.expect(2, ["--frobnicate"], "frobnicate")
        self.expect(2, ["--shape", "8x8x8", "--budgt", "5"], "--budgt", "did you mean --budget?")
        self.expect(2, ["lookup", "t.json", "--shape", "8x8x8", "--any-devce"], "did you mean --any-device?")

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
            self.assertRegex(out, r"best: (tiled|warptile)_f32_")  # the f32 tile families win on lavapipe
            table = load_json(path)
            self.assertEqual(table["schema_version"], 5)
            self.assertEqual(table["tool"]["name"], "gemmtune")
            for key in ["name", "vendor_id", "device_id", "driver_version", "api_version", "type", "pipeline_cache_uuid"]:
                self.assertIn(key, table["device"])
            self.assertEqual([e["dtype"] for e in table["entries"]], ["f32", "f16", "bf16"])
            bounds = {"f32": 1e-5, "f16": 2e-3, "bf16": 8e-3}
            for dtype in ["f32", "f16", "bf16"]:  # the naive baseline, timed once per problem
                self.assertRegex(out, rf"baseline naive_{dtype}_wg64: [0-9.]+ (us|ms|s); the best is [0-9.]+x (faster|slower than the baseline)")
            for e in table["entries"]:
                self.assertGreater(e["baseline_us"], 0)
                self.assertEqual((e["m"], e["n"], e["k"], e["batch"], e["layout"]), (33, 17, 65, 1, "nn"))
                best = e["best"]
                # On lavapipe a tile family wins: tiled for every type, or warptile (f32 only).
                self.assertIn(best["variant"], ["tiled", "warptile"] if e["dtype"] == "f32" else ["tiled"])
                self.assertTrue(best["name"].startswith(f"{best['variant']}_{e['dtype']}_"))
                self.assertEqual(best["bound"], bounds[e["dtype"]])
                self.assertLessEqual(best["error"], best["bound"])
                self.assertGreater(best["median_us"], 0)
                self.assertGreaterEqual(best["median_us"], best["min_us"])
                self.assertGreater(best["screen_us"], 0)  # the finalist's screening time, which its finals repeat
                # A table records every parameter, tiled's pre-pass of weights in blocks and its ranges too (0 and 1
                # for dense types).
                tile = {"bm", "bn", "bk", "tm", "tn", "prepass"}
                warptile = {"bm", "bn", "bk", "tm", "tn", "wm", "wn", "splits", "reduce", "ahead", "tiles", "cvec",
                            "kslices"}
                self.assertEqual(set(best["params"]), warptile if best["variant"] == "warptile" else tile)
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

    def test_integer_types_are_exact_with_zero_points_and_refuse_float_options(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.json")
            rc, out, err = run("--shape", "19x23x77", "--dtype", "i8,u8,u8i8", "--layout", "nn,tt", "--zero-a", "3",
                               "--zero-b", "100", "--budget", "6", "--samples", "3", "--out", path)
            self.assertEqual(rc, 0, err)
            table = load_json(path)
            self.assertEqual([(e["dtype"], e["layout"]) for e in table["entries"]],
                             [("i8", "nn"), ("u8", "nn"), ("u8i8", "nn"), ("i8", "tt"), ("u8", "tt"), ("u8i8", "tt")])
            for e in table["entries"]:
                best = e["best"]
                self.assertTrue(best["name"].startswith(f"tiled_{e['dtype']}_"), best["name"])
                self.assertEqual((best["error"], best["bound"]), (0.0, 0.0))  # bit for bit
                self.assertEqual(e["candidates"]["failed"], 0)
                # The baseline runs in what the search left of the problem's 1 s: on a loaded machine it may be
                # skipped, with the reason printed (the integer naive kernel itself is verified below).
                if e["baseline_us"] is None:
                    self.assertIn("  baseline skipped: about ", out)
                else:
                    self.assertGreater(e["baseline_us"], 0)
                # Families added later may join the list (warptile: f32 only); these must stay in it, in sweep order.
                expected = ["splitk", "fewrows", "rowdot", "rowmma", "coopmat", "coopmat2"]
                self.assertEqual([v["variant"] for v in e["not_applicable"] if v["variant"] in expected], expected)
            for dtype in ["i8", "u8", "u8i8"]:
                if any(e["dtype"] == dtype and e["baseline_us"] is not None for e in table["entries"]):
                    self.assertRegex(out, rf"baseline naive_{dtype}_wg64: [0-9.]+ (us|ms|s); the best is [0-9.]+x (faster|slower than the baseline)")
                # The integer naive kernel, verified exactly like the rest, whatever the budget left it.
                rc, bench_out, err = run("bench", "--config", f"naive_{dtype}_wg64", "--shape", "19x23x77", "--layout",
                                         "tt", "--zero-a", "3", "--zero-b", "100", "--json")
                self.assertEqual(rc, 0, err)
                naive = json.loads(bench_out)["results"][0]
                self.assertEqual((naive["disposition"], naive["error"], naive["bound"]), ("passed", 0.0, 0.0))
            self.assertIn(" GOP/s", out)  # integer rates are operations, not floating-point ones
            self.assertNotIn("GFLOP/s", out)
            # The rerun line carries the zero points, so it reruns the same operation (exactly again).
            reruns = [l.split("rerun: gemmtune ")[1] for l in out.splitlines() if "rerun: " in l]
            self.assertEqual(len(reruns), 6)
            for rerun in reruns:
                self.assertIn("--zero-a 3 --zero-b 100", rerun)
            rc, bench_out, err = run(*reruns[-1].split(), "--samples", "3", "--json")
            self.assertEqual(rc, 0, err)
            result = json.loads(bench_out)["results"][0]
            self.assertEqual((result["disposition"], result["error"], result["bound"]), ("passed", 0.0, 0.0))
            self.assertGreater(result["compile_ms"], 0.0)  # bench builds its one pipeline
            self.assertIsInstance(result["pipeline_statistics"], dict)
        for args, fragments in [(["--dtype", "i8", "--beta", "1"], ["--beta", "beta must be 0"]),
                                (["--dtype", "u8", "--zero-a", "256"], ["--zero-a", "'256'", "0..255"]),
                                (["--dtype", "i8", "--zero-b", "-129"], ["--zero-b", "'-129'", "-128..127"]),
                                (["--dtype", "f16", "--zero-a", "1"], ["--zero-a", "zero points apply"]),
                                (["--dtype", "u8i8", "--activation", "gelu-erf"], ["--activation", "no activation"])]:
            rc, _, err = run("--shape", "8x8x8", *args)
            self.assertEqual(rc, 2, args)
            lines = [l for l in err.splitlines() if l.strip()]
            self.assertEqual(len(lines), 1, err)
            for f in fragments:
                self.assertIn(f, lines[0])

    def test_the_total_budget_bounds_the_whole_run(self):
        # --total-budget is the run's whole time: each problem gets an equal share of what is left, and a share is
        # everything (reference, screening, finals, baseline). Bound: the budget, 10 %, and 4 s for the process's
        # start and the one config that may run past a share's end (lavapipe builds a large tile in up to a second;
        # the run took 5.6-5.9 s with or without two CPU hogs beside it, and once, beside them, more than 9.1 s).
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.json")
            start = time.monotonic()
            rc, out, err = run("--shape", "96x96x96,128x128x128,160x160x160", "--total-budget", "6", "--samples", "3",
                               "--out", path)
            elapsed = time.monotonic() - start
            self.assertEqual(rc, 0, err)
            self.assertLess(elapsed, 6 * 1.1 + 4.0, out)
            entries = load_json(path)["entries"]
            self.assertEqual(len(entries), 3)
            self.assertTrue(all(e["best"] for e in entries))

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
            # rowdot reads B stored N x K and fewrows B stored K x N: each is not applicable to the other's layout,
            # and the table says why; rowmma, coopmat and coopmat2 serve only 16-bit inputs in fast mode.
            # (Families that leave deterministic mode to others, as warptile does, may follow.)
            for entry, expected in [(nt, ["fewrows", "rowmma", "coopmat", "coopmat2"]),
                                    (tn, ["rowdot", "rowmma", "coopmat", "coopmat2"])]:
                listed = [v["variant"] for v in entry["not_applicable"]]
                self.assertEqual(listed[:4], expected)
            self.assertIn("B stored N x K", nt["not_applicable"][0]["reason"])
            self.assertIn("B stored K x N", tn["not_applicable"][0]["reason"])
            self.assertIn("f16 and bf16 inputs only", tn["not_applicable"][1]["reason"])
            self.assertIn("f32 inputs", tn["not_applicable"][2]["reason"])
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

    def test_an_operand_past_32_bit_indexing_is_refused_in_64_bit_arithmetic(self):
        # C of 70000 x 70000 = 4.9e9 elements: a 32-bit count would wrap to 605032704 and pass every limit.
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.json")
            rc, _, err = run("--shape", "70000x70000x1", "--budget", "1", "--out", path)
            self.assertEqual(rc, 3, err)
            line = [l for l in err.splitlines() if "error" in l][-1]
            # 4.9e9 elements and the guard band around C
            self.assertRegex(line, r"operand C needs 49000001\d\d elements, limit 4294967295 elements \(32-bit shader indexing\)")
            self.assertIn("32-bit shader indexing", load_json(path)["entries"][0]["unsupported"])

    def test_devices_reports_every_buffer_limit(self):
        limits = json.loads(run("devices", "--json")[1])[0]["limits"]
        for key in ["max_storage_buffer_range", "max_memory_allocation_size", "max_buffer_size"]:
            self.assertGreater(limits[key], 0, key)

    def test_default_output_is_gemmtune_device_in_the_working_folder(self):
        with tempfile.TemporaryDirectory() as d:
            rc, _, err = run("--shape", "4x4x4", "--budget", "0.01", "--samples", "3", cwd=d)
            self.assertEqual(rc, 0, err)
            files = sorted(os.listdir(d))
            self.assertEqual(len(files), 3)
            self.assertTrue(files[0].startswith("gemmtune-") and files[0].endswith(".json"), files)
            self.assertEqual(files[1:], [files[0] + ".journal.jsonl", files[0] + ".lock"])

    def test_a_twin_dtypes_winner_on_the_same_shape_is_screened_first_retyped(self):
        # The table holds f16's winner on the shape (one config tuned); a bf16 tune into it screens first that config
        # with its dtype token changed, the same kernel in the other element type, where a fresh table's bf16 tune
        # starts elsewhere (one build at a time, so the screening order is the strategy's).
        twin = "fewrows_f16_cols32_slices4_unroll1_vec4"
        common = ["--shape", "8x96x64", "--build-workers", "0", "--budget", "2", "--samples", "3"]

        def first_bf16(path):
            with open(path + ".journal.jsonl") as f:
                for line in f:
                    r = json.loads(line)
                    if r["phase"] == "begin" and json.loads(r["problem"])["dtype"] == "bf16":
                        return r["config"]
            return None

        with tempfile.TemporaryDirectory() as d:
            seeded, fresh = os.path.join(d, "seeded.json"), os.path.join(d, "fresh.json")
            rc, _, err = run(*common, "--dtype", "f16", "--kernels", twin, "--out", seeded)
            self.assertEqual(rc, 0, err)
            for path in [seeded, fresh]:
                rc, _, err = run(*common, "--dtype", "bf16", "--kernels", "fewrows_*", "--out", path)
                self.assertEqual(rc, 0, err)
            self.assertEqual(first_bf16(seeded), "fewrows_bf16_cols32_slices4_unroll1_vec4")
            self.assertNotEqual(first_bf16(fresh), first_bf16(seeded))


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

    def test_json_lists_candidates_pruned_configs_and_inapplicable_variants(self):
        rc, out, err = run("list", "--shape", "8x8x8,4x16x300", "--dtype", "i8", "--kernels", "splitk_i8_bm32_bn32_bk16_tm2_tn2_*", "--json")
        self.assertEqual(rc, 0, err)
        listing = json.loads(out)
        self.assertIn("llvmpipe", listing["device"])
        small, long_k = listing["problems"]
        self.assertEqual((small["m"], small["n"], small["k"], small["dtype"], small["layout"]), (8, 8, 8, "i8", "nn"))
        self.assertEqual(small["candidates"], [])  # split-k needs K >= 128
        self.assertIn("splitk", [v["variant"] for v in small["not_applicable"]])
        self.assertTrue(long_k["candidates"])
        self.assertTrue(all(c.startswith("splitk_i8_bm32_bn32_bk16_tm2_tn2_") for c in long_k["candidates"]))
        self.assertGreater(long_k["left_out_by_kernels"], 0)
        for pruned in long_k["pruned"]:
            self.assertEqual(set(pruned), {"name", "code", "reason"})
        self.assertIn("k_ranges", {p["code"] for p in long_k["pruned"]})
        # The text listing names the same candidates.
        rc, text, err = run("list", "--shape", "4x16x300", "--dtype", "i8", "--kernels", "splitk_i8_bm32_bn32_bk16_tm2_tn2_*")
        self.assertEqual([l.strip() for l in text.splitlines()[1:]], long_k["candidates"])

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
            # A glob that names no config of the swept variants in the requested dtypes is a mistake: one line, exit 2,
            # before any work (the table is left as it was).
            before = open(path).read()
            for args in [["--kernels", "tiled_f32_*", "--dtype", "f16"], ["--kernels", "naive_*"], ["--kernels", "tiled-f32*"]]:
                rc, _, err = run("--shape", "4x20x20", *args, "--out", path)
                self.assertEqual(rc, 2, (args, err))
                self.assertEqual(len(err.strip().splitlines()), 1, err)
                self.assertIn("--kernels", err)
                self.assertIn("matches no config", err)
            self.assertEqual(open(path).read(), before)

    def test_screen_warmup_is_device_time_before_each_screening_batch(self):
        # One config, screened then finalised: a 2 s screening warm-up makes the run at least 1.5 s longer than
        # none (the finals' own 200 ms warm-up and samples are the same in both).
        import time
        seconds = {}
        with tempfile.TemporaryDirectory() as d:
            for warmup in ["0", "2"]:
                start = time.monotonic()
                rc, out, err = run("--shape", "32x32x32", "--kernels", "tiled_f32_bm32_bn32_bk8_tm2_tn2", "--budget", "60",
                                   "--samples", "3", "--screen-warmup", warmup, "--out", os.path.join(d, f"w{warmup}.json"))
                seconds[warmup] = time.monotonic() - start
                self.assertEqual(rc, 0, err)
        self.assertGreater(seconds["2"] - seconds["0"], 1.5, seconds)

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


class Shapes(unittest.TestCase):
    def listed_problems(self, *args):
        rc, out, err = run("list", *args)
        self.assertEqual(rc, 0, err)
        return [l.split(" on ")[0] for l in out.splitlines() if " candidates, " in l]

    def test_ranges_expand_as_a_cartesian_product(self):
        self.assertEqual(self.listed_problems("--shape", "4:8:4x16:64:*4x32", "--kernels", "fewrows_f32_cols8_slices4_*"),
                         ["4x16x32 f32 nn", "4x64x32 f32 nn", "8x16x32 f32 nn", "8x64x32 f32 nn"])

    def test_every_builtin_suite_loads(self):
        # whisper-base: the decoder's cross-attention query and attention output are one problem (1x512x512)
        expected = {"bert-base": 8, "whisper-base": 9, "llama-7b": 15, "h200-suite": 8, "decode": 12, "models": 38,
                    "quantized": 15}
        listed = {suite: self.listed_problems("--suite", suite, "--kernels", "tiled_*_bm32_bn32_bk8_tm1_tn1")
                  for suite in expected}
        self.assertEqual({suite: len(problems) for suite, problems in listed.items()}, expected)
        self.assertIn("1x51865x512 f32 nn", listed["whisper-base"])
        # decode: its lines name layout nt (a linear layer's weight)
        self.assertIn("16x51865x768 f32 nt", listed["decode"])
        # models: batched attention and every layout come from the lines
        self.assertIn("512x512x64x12 f32 nt", listed["models"])
        self.assertIn("16x4096x4096 f32 tt", listed["models"])
        # --help names every built-in suite
        rc, out, _ = run("--help")
        self.assertEqual(rc, 0)
        self.assertIn("Built-in shape suite: " + ", ".join(sorted(expected)) + "; repeatable", " ".join(out.split()))
        rc, _, err = run("list", "--suite", "resnet")
        self.assertEqual(rc, 2)
        self.assertIn("--suite: 'resnet': unknown suite (built in: bert-base, decode, h200-suite, llama-7b, models, quantized, "
                      "whisper-base)", err)

    def test_shapes_file_lines_fix_their_dtype_and_layout(self):
        with tempfile.TemporaryDirectory() as d:
            shapes = os.path.join(d, "shapes.txt")
            with open(shapes, "w") as f:
                f.write("# two problems of their own, one from the command line's --dtype\n"
                        "first 4x16x16 f16 tn\n\n4x24x16   # a comment\nagain 4x16x16 f16 tn\n")
            self.assertEqual(self.listed_problems("--shapes-file", shapes, "--dtype", "bf16", "--kernels", "tiled_*_bm32_bn32_bk8_tm1_tn1"),
                             ["4x16x16 f16 tn", "4x24x16 bf16 nn"])
            path = os.path.join(d, "t.json")
            rc, out, err = run("--shapes-file", shapes, "--kernels", "fewrows_*_cols8_slices4_*", "--budget", "1",
                               "--samples", "3", "--out", path)
            self.assertEqual(rc, 0, err)
            entries = load_json(path)["entries"]
            self.assertEqual([(e["dtype"], e["layout"]) for e in entries], [("f16", "tn"), ("f32", "nn")])
            # A line's name is printed beside its problem; an unnamed line's problem stands alone.
            self.assertRegex(out, r"(?m)^first: 4x16x16 f16 tn on ")
            self.assertRegex(out, r"(?m)^4x24x16 f32 nn on ")

    def test_bad_shapes_files_name_file_and_line(self):
        with tempfile.TemporaryDirectory() as d:
            shapes = os.path.join(d, "shapes.txt")
            with open(shapes, "w") as f:
                f.write("ok 8x8x8\nbad 8x8x8 f64\n")
            rc, _, err = run("list", "--shapes-file", shapes)
            self.assertEqual(rc, 2)
            self.assertEqual(err.strip().splitlines(), [f"gemmtune: error: {shapes}:2: 'f64': unexpected here (a line is "
                                                        "[name] MxNxK[xB] [dtype] [layout] [cold], in that order)"])
            rc, _, err = run("list", "--shapes-file", os.path.join(d, "missing.txt"))
            self.assertEqual(rc, 5, err)
            self.assertIn("missing.txt", err)


class Output(unittest.TestCase):
    # 9 configs screen in about 0.6 s here; the budget leaves room for a machine loaded by the parallel suite (with 1 s
    # a loaded clean-clone run once timed only 1 of the 3 rows the alignment test needs).
    ARGS = ["--shape", "4x16x16", "--kernels", "fewrows_f32_cols8_slices4_*", "--budget", "10", "--samples", "3"]

    def test_json_prints_one_summary_on_stdout_and_logs_on_stderr(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.json")
            rc, out, err = run(*self.ARGS, "--shape", "5x16x16", "--json", "--out", path)
            self.assertEqual(rc, 0, err)
            summary = json.loads(out)  # the whole of stdout is one JSON document
            self.assertEqual(summary["exit_code"], 0)
            self.assertEqual(summary["table"], path)
            self.assertEqual([p["problem"] for p in summary["problems"]], ["4x16x16 f32 nn", "5x16x16 f32 nn"])
            for p, e in zip(summary["problems"], load_json(path)["entries"]):
                self.assertEqual(p["best"]["name"], e["best"]["name"])
                self.assertEqual(p["best"]["screen_us"], e["best"]["screen_us"])  # the finalist's screening time
                self.assertGreater(p["baseline_us"], 0)
                self.assertAlmostEqual(p["speedup_over_baseline"], p["baseline_us"] / p["best"]["median_us"])
                self.assertTrue(p["rerun"].startswith("gemmtune bench --config fewrows_f32_cols8_slices4_"))
                # Where the problem's time went: every phase took some, and together they are the whole of it.
                phases = p["seconds_by_phase"]
                self.assertEqual(set(phases), {"preparation", "screening", "finals", "baseline"})
                self.assertTrue(all(v > 0 for v in phases.values()), phases)
                self.assertLessEqual(sum(phases.values()), p["seconds"] + 1e-3)
                self.assertGreater(sum(phases.values()), 0.9 * p["seconds"])
                # The preparation's parts: the operands and the reference took some; together no more than it.
                parts = p["preparation_seconds"]
                self.assertEqual(set(parts), {"operands", "reference", "uploads", "device_check"})
                self.assertTrue(parts["operands"] > 0 and parts["reference"] > 0, parts)
                self.assertTrue(all(v >= 0 for v in parts.values()), parts)
                self.assertLessEqual(sum(parts.values()), phases["preparation"] + 1e-3)
            self.assertIn("tuning table:", err)

    def test_the_screened_share_and_each_not_applicable_line_are_said_once(self):
        # Two problems with the same reasons against coopmat, coopmat2 and rowmma (f32) and a budget too small for
        # the space: each problem says how much it screened and what budget would screen it all; each reason once.
        with tempfile.TemporaryDirectory() as d:
            rc, out, err = run("--shape", "4x16x16,5x16x16", "--budget", "2", "--samples", "3",
                               "--out", os.path.join(d, "t.json"))
            self.assertEqual(rc, 0, err)
            screened = re.findall(r"screened (\d+) of (\d+) candidates \((\d+) %\); at this run's ([0-9.]+) s a "
                                  r"config, --budget (\d+) \(", out)
            self.assertEqual(len(screened), 2, out)
            for (done, total, share, per, budget), summary in zip(
                    screened, re.findall(r"(\d+) evaluated.*?(\d+) skipped by the budget", out)):
                self.assertEqual(int(done) + int(summary[1]), int(total))
                self.assertEqual(int(done), int(summary[0]))
                self.assertLess(int(done), int(total))
                self.assertGreaterEqual(int(budget), int(float(per) * int(total)))  # screening ends before the finals' reserve
            for variant in ("coopmat", "coopmat2", "rowmma"):
                self.assertEqual(len(re.findall(rf"^  {variant}: not applicable", out, re.M)), 1, out)

    def run_on_a_terminal(self, *extra, env=None):
        import pty
        master, slave = pty.openpty()
        with tempfile.TemporaryDirectory() as d:
            p = subprocess.Popen([BIN, *self.ARGS, "--out", os.path.join(d, "t.json"), *extra], stdout=slave,
                                 stderr=subprocess.PIPE, env={**os.environ, **(env or {})})
            os.close(slave)
            chunks = [chunk for _, chunk in read_terminal(master)]
            p.wait(timeout=120)
            os.close(master)
            err = p.stderr.read()
            p.stderr.close()
            self.assertEqual(p.returncode, 0, err)
            return b"".join(chunks).decode()

    def test_the_live_line_changes_every_second_in_every_phase_and_a_pipe_logs_each_phase_once(self):
        import pty
        master, slave = pty.openpty()
        with tempfile.TemporaryDirectory() as d:
            p = subprocess.Popen([BIN, "--shape", "64x64x256", "--budget", "4", "--out", os.path.join(d, "t.json")],
                                 stdout=subprocess.DEVNULL, stderr=slave)
            os.close(slave)
            draws = []  # (time, text) of each redraw of the line
            for now, chunk in read_terminal(master):
                draws += [(now, part) for part in chunk.decode(errors="replace").split("\r\x1b[K") if part]
            closed = time.monotonic()
            p.wait(timeout=120)
            os.close(master)
            self.assertEqual(p.returncode, 0)
        lines = [(t, text) for t, text in draws if "s of 4" in text]
        # The line lives as long as the run, whose length depends on the machine's load (the screening stops when
        # the next config would not fit): it spans the phases (the finals' warm-up alone takes a second) and is
        # drawn until the end.
        self.assertGreater(lines[-1][0] - lines[0][0], 1.5, lines)
        self.assertLess(closed - lines[-1][0], 1.0, lines)
        gaps = [b[0] - a[0] for a, b in zip(lines, lines[1:])]
        self.assertLess(max(gaps), 1.0, lines)  # redrawn twice a second, whatever the phase
        for phase in ("reference", "screening", "finals", "baseline"):
            self.assertTrue(any(f": {phase}" in text for _, text in lines), (phase, lines))
        self.assertTrue(any(re.search(r"~[0-9]+ s left", text) for _, text in lines), lines)
        rc, _, err = run("--shape", "64x64x256", "--budget", "4", "--out", os.path.join(tempfile.gettempdir(), "gemmtune-phases.json"))
        self.assertEqual(rc, 0, err)
        for phase in ("reference", "screening", "finals", "baseline"):
            self.assertEqual(len(re.findall(rf"64x64x256 f32 nn: {phase}", err)), 1, err)

    def test_colour_only_on_a_terminal_and_never_with_no_color(self):
        coloured = self.run_on_a_terminal()
        self.assertIn("\x1b[32m", coloured)  # the best row and line in green
        self.assertIn("best: fewrows_f32_cols8_slices4_", coloured)
        self.assertNotIn("\x1b[", self.run_on_a_terminal("--no-color"))
        self.assertNotIn("\x1b[", self.run_on_a_terminal(env={"NO_COLOR": "1"}))
        rc, out, err = run(*self.ARGS, "--out", os.path.join(tempfile.gettempdir(), "gemmtune-pipe.json"))
        self.assertEqual(rc, 0, err)
        self.assertNotIn("\x1b[", out)  # a pipe is not a terminal
        self.assertNotIn("\x1b[", err)

    def test_the_table_is_aligned_with_units(self):
        with tempfile.TemporaryDirectory() as d:
            rc, out, err = run(*self.ARGS, "--out", os.path.join(d, "t.json"))
            self.assertEqual(rc, 0, err)
            lines = out.splitlines()
            header = next(i for i, l in enumerate(lines) if "median us" in l)
            self.assertIn("GFLOP/s", lines[header])
            rows = [l for l in lines[header + 1:] if l.startswith(("* ", "  fewrows_"))]
            self.assertGreaterEqual(len(rows), 3)
            at = lines[header].index("median us") + len("median us")
            for row in rows:  # numbers right-aligned under their header
                self.assertRegex(row[:at], r"[0-9]\.[0-9]{2}$", row)


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

    def test_json_gives_one_object_per_problem(self):
        rc, out, err = run("bench", "--config", "tiled_f32_bm32_bn32_bk8_tm2_tn2", "--shape", "8x8x8,9x7x5", "--layout", "nn,tt",
                           "--samples", "3", "--json")
        self.assertEqual(rc, 0, err)
        results = json.loads(out)["results"]
        self.assertEqual([(r["m"], r["n"], r["k"], r["layout"]) for r in results],
                         [(8, 8, 8, "nn"), (8, 8, 8, "tt"), (9, 7, 5, "nn"), (9, 7, 5, "tt")])
        for r in results:
            self.assertEqual((r["config"], r["dtype"], r["disposition"], r["samples"]), ("tiled_f32_bm32_bn32_bk8_tm2_tn2", "f32", "passed", 3))
            self.assertGreater(r["median_us"], 0)
            self.assertLessEqual(r["min_us"], r["median_us"])
            self.assertLessEqual(r["error"], r["bound"])

    def test_options_it_would_ignore_are_refused(self):
        for command, extra in [("bench", ["--config", "tiled_f32_bm32_bn32_bk8_tm2_tn2"]), ("list", [])]:
            for option in [["--out", "x.json"], ["--budget", "3"], ["--strategy", "exhaustive"], ["--resume"], ["--screen-warmup", "1"]]:
                rc, _, err = run(command, *extra, "--shape", "8x8x8", *option)
                self.assertEqual(rc, 2, (command, option, err))
                self.assertEqual(len(err.strip().splitlines()), 1, err)
                self.assertIn(option[0], err)
        rc, _, err = run("list", "--shape", "8x8x8", "--samples", "3")
        self.assertEqual(rc, 2, err)

    def test_bad_or_unusable_configs(self):
        rc, _, err = run("bench", "--config", "tiled_f64_bm32", "--shape", "8x8x8")
        self.assertEqual(rc, 2, err)
        rc, _, err = run("bench", "--config", "tiled_f32_bm33_bn32_bk8_tm1_tn1", "--shape", "8x8x8")
        self.assertEqual(rc, 2, err)
        self.assertIn("no config of tiled has this name", err)
        # Values of the family that make no kernel together: the layout rule they break.
        rc, _, err = run("bench", "--config", "warptile_f32_bm64_bn64_bk16_wm32_wn32_tm8_tn8_splits1", "--shape", "8x8x8")
        self.assertEqual(rc, 2, err)
        self.assertIn("no kernel of warptile: lane_grid:", err)
        # A parameter at its unnamed value (splits 1) may be named or not: both name the same config.
        for name in ["fewrows_f32_cols8_slices4_unroll4_vec1", "fewrows_f32_cols8_slices4_unroll4_vec1_splits1"]:
            rc, _, err = run("bench", "--config", name, "--shape", "80x8x8")
            self.assertEqual(rc, 3, err)
            self.assertIn("M = 80", err)
        # A config the problem's space does not sweep is still held to its family's constraints: warptile sweeps
        # several tiles a workgroup only where K <= 512, and its tiles of 16 rows serve M <= 16 only.
        for name, shape, reason in [("warptile_f32_bm16_bn32_bk8_wm16_wn32_tm4_tn4_splits1_tiles2_cvec1", "64x64x1024",
                                     "M <= 16 only (M = 64)")]:
            rc, _, err = run("bench", "--config", name, "--shape", shape, "--layout", "nt")
            self.assertEqual(rc, 3, err)
            self.assertIn(reason, err)
            self.assertEqual(len(err.strip().splitlines()), 1, err)


class PlantedFaults(unittest.TestCase):
    """gemmtune itself refuses each planted fault (src/kernels/test_variants.cpp) in every type it applies to: the sweep of
    the faulty config ends with no verified candidate (exit 1), never a winner."""
    CASES = [("fault_unroll_tail", "3x77x1003", "nn", "fault_unroll_tail_*_cols8_slices8_unroll4_vec4"),
             ("fault_last_slice", "3x77x1003", "nn", "fault_last_slice_*_cols8_slices8_unroll1_vec4"),
             ("fault_dropped_plane", "3x77x1003", "nn", "fault_dropped_plane_*_cols8_slices8_unroll4_vec8_splits4"),
             ("fault_rowdot_head", "3x21x1003", "nt", "fault_rowdot_head_*_wg64_rows2_unroll2"),
             ("fault_edge_column", "17x33x65", "nn", "fault_edge_column_*_bm32_bn32_bk8_tm4_tn4"),
             ("fault_beta_reads_c", "17x33x65", "nt", "fault_beta_reads_c_*_bm32_bn32_bk8_tm4_tn4")]
    # The epilogue faults, with the epilogue they break.
    EPILOGUE = [("fault_bias_shift", "17x33x131", "nn", "fault_bias_shift_*_bm32_bn32_bk8_tm4_tn4", ["--bias"]),
                ("fault_gelu_constant", "31x131x131", "nn", "fault_gelu_constant_*_bm32_bn32_bk8_tm4_tn4",
                 ["--bias", "--activation", "gelu-tanh"]),
                ("fault_gelu_erf_constant", "31x131x131", "nn", "fault_gelu_erf_constant_*_bm32_bn32_bk8_tm4_tn4",
                 ["--bias", "--activation", "gelu-erf"]),
                # The summation order: within the bounds, refused in deterministic mode by the order check.
                ("fault_reversed_planes", "3x77x1003", "nn", "fault_reversed_planes_*_cols8_slices8_unroll4_vec4_splits4",
                 ["--mode", "deterministic"])]
    # The 8-bit zero point, planted in the integer few-rows kernel: A's zero point 3.
    INTEGER = ("fault_zero_point", "5x77x1003", "nn", "fault_zero_point_*_cols8_slices8_unroll4_vec4")

    def test_every_fault_is_refused_by_the_sweep(self):
        for variant, shape, layout, kernels, extra in [c + ([],) for c in self.CASES] + [self.INTEGER + (["--zero-a", "3"],)] + self.EPILOGUE:
            integer = variant == self.INTEGER[0]
            types = ["--dtype", "i8,u8,u8i8" if integer else "f32,f16,bf16", *extra]
            with tempfile.TemporaryDirectory() as d:
                path = os.path.join(d, "t.json")
                env = dict(os.environ, GEMMTUNE_TEST_KERNELS=variant)
                p = subprocess.run([BIN, "--shape", shape, "--layout", layout, *types, "--variants", variant,
                                    "--kernels", kernels, "--budget", "30", "--out", path],
                                   capture_output=True, text=True, env=env, timeout=600)
                self.assertEqual(p.returncode, 1, variant + ": " + p.stderr + p.stdout)
                entries = load_json(path)["entries"]
                self.assertEqual(len(entries), 3, variant)
                for e in entries:  # the faulty config was run and refused, not missed by the glob
                    self.assertIsNone(e["best"], variant)
                    self.assertEqual((e["candidates"]["evaluated"], e["candidates"]["failed"]), (1, 1), variant)
                self.assertEqual(p.stdout.count("no verified candidate"), 3, variant + ": " + p.stdout)
                if variant == "fault_reversed_planes":
                    journal = [json.loads(line) for line in open(path + ".journal.jsonl")]
                    refused = [r for r in journal if r["config"] and "summation order" in r["detail"]]
                    self.assertEqual(len(refused), 3, variant)


class Peak(unittest.TestCase):
    def test_measures_stores_in_the_device_section_and_survives_tuning(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.json")
            rc, out, err = run("peak", "--json", "--samples", "1", "--copy-bytes", "1048576", "--out", path)
            self.assertEqual(rc, 0, err)
            measured = json.loads(out)
            self.assertEqual(measured["copy_buffer_bytes"], 1048576)
            self.assertGreater(measured["f32_tflops"], 0)
            self.assertGreater(measured["copy_gbps"], 0)
            self.assertIsNone(measured["coopmat_f16_tflops"])  # lavapipe has no cooperative matrices
            peak = load_json(path)["device"]["peak"]
            self.assertEqual(peak["f32_tflops"], measured["f32_tflops"])
            self.assertIsNone(peak["coopmat_f16_tflops"])
            rc, _, err = run("--shape", "4x4x4", "--budget", "0.01", "--samples", "3", "--out", path)
            self.assertEqual(rc, 0, err)
            table = load_json(path)
            self.assertEqual(table["device"]["peak"], peak)
            self.assertEqual(len(table["entries"]), 1)
            best = table["entries"][0]["best"]
            self.assertIn(best["bound_by"], ["compute", "memory"])
            self.assertGreater(best["ceiling_fraction"], 0)

    def test_the_matrix_sweep_lists_only_what_the_device_runs(self):
        # lavapipe has no cooperative matrices: the sweep runs nothing and says so, in text and JSON (the H200 call
        # in results/h200/notes.md, issue 21, has the points).
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.json")
            rc, out, err = run("peak", "--json", "--matrix-sweep", "--samples", "1", "--copy-bytes", "1048576",
                               "--out", path)
            self.assertEqual(rc, 0, err)
            self.assertEqual(json.loads(out)["matrix_sweep"], [])
            rc, out, err = run("peak", "--matrix-sweep", "--samples", "1", "--copy-bytes", "1048576", "--out", path)
            self.assertEqual(rc, 0, err)
            self.assertIn("matrix sweep: nothing the device runs", out)
            rc, out, err = run("peak", "--json", "--samples", "1", "--copy-bytes", "1048576", "--out", path)
            self.assertNotIn("matrix_sweep", json.loads(out))

    def test_the_cached_read_rate_is_measured_only_when_asked(self):
        # kernels/peak_read.comp: 1024 workgroups each read the whole buffer, sized in rows of 32 KiB.
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.json")
            rc, out, err = run("peak", "--json", "--samples", "1", "--copy-bytes", "1048576", "--cached-read-bytes",
                               "40000", "--out", path)
            self.assertEqual(rc, 0, err)
            measured = json.loads(out)
            self.assertEqual(measured["cached_read_buffer_bytes"], 32768)
            self.assertEqual(measured["cached_read_workgroups"], 1024)
            self.assertGreater(measured["cached_read_gbps"], 0)
            rc, out, err = run("peak", "--samples", "1", "--copy-bytes", "1048576", "--cached-read-bytes", "65536",
                               "--out", path)
            self.assertEqual(rc, 0, err)
            self.assertIn("cached read:", out)
            self.assertIn("a 65536-byte buffer read whole by each of 1024 workgroups", out)
            rc, out, err = run("peak", "--json", "--samples", "1", "--copy-bytes", "1048576", "--out", path)
            self.assertEqual(rc, 0, err)
            self.assertNotIn("cached_read_gbps", json.loads(out))
        rc, _, err = run("peak", "--cached-read-bytes", "0")
        self.assertEqual(rc, 2, err)
        self.assertIn("--cached-read-bytes", err)

    def test_a_copy_size_below_one_vector_is_refused(self):
        rc, _, err = run("peak", "--copy-bytes", "8")
        self.assertEqual(rc, 2, err)
        self.assertIn("--copy-bytes", err)

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
        for key in ["name", "vendor_id", "driver_version", "api_version", "type", "limits", "subgroup_size", "timestamps",
                    "memory_heaps", "matrix"]:
            self.assertIn(key, devices[0])
        d = devices[0]
        self.assertGreaterEqual(len(d["memory_heaps"]), 1)
        self.assertGreater(max(h["size"] for h in d["memory_heaps"]), 0)
        self.assertTrue(any(h["host_visible"] for h in d["memory_heaps"]))  # lavapipe: one host heap
        self.assertEqual(d["matrix"]["properties"], [])  # lavapipe has no cooperative matrices
        self.assertIs(d["matrix"]["shader_int8"], True)  # lavapipe has shaderInt8
        # Each matrix-unit family's qualification per input type it has a kernel for, with the reason.
        support = d["kernel_support"]
        self.assertEqual(sorted(support["coopmat"]),
                         ["bf16", "f16", "f16:q4_0", "f16:q8_0", "f32:q4_0", "f32:q8_0", "i8", "u8", "u8i8"])
        self.assertEqual(sorted(support["rowmma"]), ["bf16", "f16"])
        for name, family in support.items():
            for reason in family.values():
                if name not in ("qrowdot", "qrowdp"):
                    self.assertRegex(reason, "VK_(KHR|NV)_cooperative_matrix")
        # The block-quantized types' decoding kernels need subgroup shuffles of 8 or more, f16 arithmetic (qrowdot)
        # and packed integer dot products (qrowdp), which lavapipe has.
        for name in ("qrowdot", "qrowdp"):
            self.assertEqual(support[name], {"f16:q8_0": None, "f16:q4_0": None, "f32:q8_0": None, "f32:q4_0": None})
        self.assertNotIn("tiled", support)  # no requirement beyond a compute queue
        self.assertGreaterEqual(d["matrix"]["max_subgroup_size"], d["matrix"]["min_subgroup_size"])
        self.assertGreater(d["limits"]["max_shared_memory"], 0)
        self.assertGreater(d["timestamps"]["period_ns"], 0)
        self.assertGreater(d["timestamps"]["valid_bits"], 0)
        rc, out, _ = run("devices")
        self.assertIn("memory heap 0:", out)
        self.assertIn("subgroup sizes", out)
        self.assertIn("shaderInt8 yes", out)
        self.assertIn("coopmat u8i8: not supported: the device lacks VK_KHR_cooperative_matrix", out)


class PipelineCache(unittest.TestCase):
    """The persistent pipeline cache: framed and checked on read, rewritten when damaged, bypassed on request."""

    ARGS = ["--shape", "16x16x16", "--budget", "2", "--kernels", "tiled_f32_bm32_bn32_bk8_tm2_tn2"]

    def tune(self, folder, *extra, env=None):
        p = subprocess.run([BIN, *self.ARGS, *extra, "--out", os.path.join(folder, "t.json")], capture_output=True,
                           text=True, timeout=600, env={**os.environ, "GEMMTUNE_CACHE_DIR": os.path.join(folder, "c"),
                                                        **(env or {})})
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stderr

    @staticmethod
    def cache_files(folder):
        c = os.path.join(folder, "c")
        return [os.path.join(c, f) for f in os.listdir(c) if f.endswith(".bin")] if os.path.isdir(c) else []

    @staticmethod
    def valid_frame(data):
        if data[:8] != b"GTPCACHE" or int.from_bytes(data[16:24], "little") != len(data) - 32:
            return False
        h = 0xcbf29ce484222325
        for b in data[32:]:
            h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
        return h == int.from_bytes(data[24:32], "little")

    def test_a_damaged_or_cut_cache_file_is_refused_with_a_warning_and_rewritten(self):
        with tempfile.TemporaryDirectory() as d:
            self.tune(d)
            [path] = self.cache_files(d)
            with open(path, "rb") as f:
                good = f.read()
            self.assertTrue(self.valid_frame(good))
            for damaged, why in [(good[:-1] + bytes([good[-1] ^ 1]), "checksum mismatch"),
                                 (good[:-3], "cut short"), (b"not a cache at all" * 4, "no GTPCACHE header")]:
                with open(path, "wb") as f:
                    f.write(damaged)
                err = self.tune(d)
                self.assertIn(f"pipeline cache {path} ignored", err)
                self.assertIn(why, err)
                with open(path, "rb") as f:
                    self.assertTrue(self.valid_frame(f.read()), why)
            # Nothing built that the file does not hold: it is left as it is.
            before = os.stat(path).st_mtime_ns
            time.sleep(0.05)
            self.assertNotIn("pipeline cache", self.tune(d))
            self.assertEqual(os.stat(path).st_mtime_ns, before)

    def test_no_pipeline_cache_neither_reads_nor_writes_the_file(self):
        for how in [(["--no-pipeline-cache"], None), ([], {"GEMMTUNE_NO_PIPELINE_CACHE": "1"})]:
            with tempfile.TemporaryDirectory() as d:
                p = subprocess.run([BIN, *how[0], *self.ARGS, "--out", os.path.join(d, "t.json")],
                                   capture_output=True, text=True, timeout=600,
                                   env={**os.environ, "GEMMTUNE_CACHE_DIR": os.path.join(d, "c"), **(how[1] or {})})
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertEqual(self.cache_files(d), [], how)


class BuildWorker(unittest.TestCase):
    """The hidden build-worker command refuses what is not a build request with one line and exit 2."""

    def serve(self, payload):
        import socket
        ours, theirs = socket.socketpair()
        p = subprocess.Popen([BIN, "build-worker", "--device", "0"], stdin=theirs, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
        theirs.close()
        ours.settimeout(60)
        ready = ours.recv(4)  # the frame length of its ready message
        self.assertEqual(len(ready), 4)
        ours.sendall(payload)
        ours.shutdown(socket.SHUT_WR)
        err = p.communicate(timeout=120)[1]
        ours.close()
        return p.returncode, [l for l in err.splitlines() if l.strip()]

    def test_a_closed_socket_ends_it_cleanly(self):
        rc, lines = self.serve(b"")
        self.assertEqual((rc, lines), (0, []))

    def test_what_is_not_a_build_request_is_refused(self):
        for payload, fragment in [(b"\x04\x00\x00\x00\x01\x00\x00\x00", "not a build request"),
                                  (b"\x02\x00\x00\x00\x07\x00", "ends early"),
                                  (b"\xff\xff\xff\x7f", "a message of 2147483647 bytes")]:
            rc, lines = self.serve(payload)
            self.assertEqual(rc, 2, lines)
            self.assertEqual(len(lines), 1, lines)
            self.assertIn(fragment, lines[0])

    def test_an_unknown_device_is_refused(self):
        p = subprocess.run([BIN, "build-worker", "--device", "no-such-gpu"], capture_output=True, text=True,
                           timeout=120, stdin=subprocess.DEVNULL)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("--device", p.stderr)


class Linkage(unittest.TestCase):
    def test_only_system_runtime_libraries(self):
        out = subprocess.run(["ldd", BIN], capture_output=True, text=True).stdout
        allowed = ("linux-vdso", "ld-linux", "libc.so", "libm.so", "libstdc++", "libgcc_s")
        if os.environ.get("GEMMTUNE_SANITIZE") == "1":  # scripts/test --sanitize: the sanitizer runtimes, by design
            allowed += ("libasan.so", "libubsan.so")
        extra = [l.split()[0] for l in out.splitlines() if l.strip() and not any(a in l for a in allowed)]
        self.assertEqual(extra, [], out)


if __name__ == "__main__":
    unittest.main(verbosity=2)
