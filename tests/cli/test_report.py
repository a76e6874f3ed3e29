#!/usr/bin/env python3
"""`gemmtune report`: the HTML page is self-contained, renders in headless Chromium (Debian's chromium) to a
PNG that is not blank, and its DOM holds every entry, the charts and the ceilings; it fits a 1280-px window, prints
rates and times in units chosen by magnitude, marks the chosen config, and draws `--anchor` files' times beside
gemmtune's."""
import json
import os
import re
import shutil
import struct
import subprocess
import tempfile
import unittest
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.abspath(os.environ.get("GEMMTUNE_BIN", os.path.join(ROOT, "build", "gemmtune")))
H200 = os.path.join(ROOT, "results", "h200", "nvidia-h200.json")
H200_CUBLAS = os.path.join(ROOT, "results", "h200", "cublas.jsonl")  # cuBLAS in the same call as that table
LAVAPIPE = os.path.join(ROOT, "tests", "data", "tables", "llvmpipe.json")


def chromium(*args, folder):
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        raise AssertionError("chromium is not installed (scripts/install-deps.sh installs Debian's chromium)")
    return subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           f"--user-data-dir={os.path.join(folder, 'profile')}", *args],
                          capture_output=True, text=True, timeout=180)


def png_pixels(path):
    """(width, height, rows of RGB tuples) of an 8-bit RGB or RGBA, non-interlaced PNG."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and color in (2, 6) and interlace == 0, header
    channels = 3 if color == 2 else 4
    raw, stride = zlib.decompress(idat), width * channels
    rows, previous, at = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, channels)])
        previous = line
    return width, height, rows


class Report(unittest.TestCase):
    def test_renders_in_chromium_with_charts_entries_and_ceilings(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "report.html")
            p = subprocess.run([BIN, "report", H200, LAVAPIPE, "-o", out], capture_output=True, text=True, timeout=60)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(out) as f:
                html = f.read()
            # Self-contained: nothing to fetch.
            for fragment in ["http://", "https://", "src=", "href=", "@import", "url("]:
                self.assertNotIn(fragment, html)
            self.assertEqual(html.count("<svg"), html.count("</svg>"))

            dom = chromium("--dump-dom", "file://" + out, folder=d)
            self.assertEqual(dom.returncode, 0, dom.stderr[-2000:])
            text = dom.stdout
            with open(H200) as f:
                h200 = json.load(f)
            self.assertIn(h200["device"]["name"], text)
            for e in h200["entries"]:
                label = f'{e["m"]}x{e["n"]}x{e["k"]} {e["layout"]}' + (" cold" if e["cold"] else "")
                self.assertIn(label, text)
                if e["best"]:
                    self.assertIn(e["best"]["name"], text)
            for heading in ["f32: best config of each variant", "f16: roofline", "bf16: entries"]:
                self.assertIn(heading, text)
            self.assertIn("f32 FMA", text)  # the H200 table has measured ceilings: roofs are drawn
            self.assertIn("matrix units (f16)", text)
            self.assertIn("No ceilings", text)  # the lavapipe table has none, and says so
            self.assertIn("table class=\"sortable\"", text)

            png = os.path.join(d, "report.png")
            shot = chromium(f"--screenshot={png}", "--window-size=1400,2200", "file://" + out, folder=d)
            self.assertEqual(shot.returncode, 0, shot.stderr[-2000:])
            width, height, rows = png_pixels(png)
            self.assertEqual((width, height), (1400, 2200))
            pixels = [px for row in rows[::4] for px in row[::4]]
            colored = [px for px in pixels if max(px) - min(px) > 60]  # bar and roofline colours, not grey text
            not_white = [px for px in pixels if px != (255, 255, 255)]
            self.assertGreater(len(not_white), len(pixels) // 50, "the page rendered (nearly) blank")
            self.assertGreater(len(colored), 200, "no chart colours on the page")
            self.assertGreaterEqual(len(set(colored)), 4)

    def test_fits_1280_px_with_units_chosen_config_and_anchors(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "report.html")
            # The cuBLAS file belongs to the H200 table only (anchor files do not name their device).
            with open(H200) as f:
                device = json.load(f)["device"]["name"]  # the card the committed bench ran on
            p = subprocess.run([BIN, "report", H200, LAVAPIPE, "--anchor", device + "=" + H200_CUBLAS, "-o", out],
                               capture_output=True, text=True, timeout=60)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(out) as f:
                html = f.read()
            # The page's width as laid out in a 1280-px window: a copy reports it into the DOM.
            probe = os.path.join(d, "probe.html")
            with open(probe, "w") as f:
                f.write(html.replace("</body>", "<script>document.body.setAttribute('data-scroll-width', "
                                                "document.documentElement.scrollWidth)</script></body>"))
            dom = chromium("--window-size=1280,1000", "--dump-dom", "file://" + probe, folder=d)
            self.assertEqual(dom.returncode, 0, dom.stderr[-2000:])
            width = re.search(r'data-scroll-width="(\d+)"', dom.stdout)
            self.assertIsNotNone(width, dom.stdout[-500:])
            self.assertLessEqual(int(width.group(1)), 1280, "the page is wider than a 1280-px window")
            h200_part, lavapipe_part = html.split(LAVAPIPE, 1)
            # Units by magnitude: the CPU device's rates in GFLOP/s (not 0.00x TFLOP/s), the H200's in TFLOP/s.
            self.assertIn(">GFLOP/s</text>", lavapipe_part)
            self.assertNotIn("TFLOP/s</text>", lavapipe_part)
            self.assertIn(">TFLOP/s</text>", h200_part)
            self.assertNotRegex(html, r"\d{5,}\.\d+ us")  # times print in us, ms or s
            with open(H200) as f:
                h200 = json.load(f)
            with open(LAVAPIPE) as f:
                lavapipe = json.load(f)
            chosen = sum(1 for t in (h200, lavapipe) for e in t["entries"] if e["best"])
            self.assertEqual(html.count("class=chosen"), chosen)  # one marked bar per entry with a chosen config
            self.assertIn("chosen: " + h200["entries"][0]["best"]["name"], html)
            # Each entry's cuBLAS line of the same call: a bar in the chart and its time over ours in the row.
            with open(H200_CUBLAS) as f:
                anchors = [json.loads(l) for l in f if l.strip()]
            matched = 0
            for e in h200["entries"]:
                for a in anchors:
                    if (a["M"], a["N"], a["K"], a["dtype"], a.get("layout", "nn"), a.get("cold", False)) == \
                            (e["m"], e["n"], e["k"], e["dtype"], e["layout"], e["cold"]) and e["best"] and e["batch"] == 1:
                        us = a["us"]
                        text = f"{us:.1f} us" if us < 999.95 else f"{us / 1e3:.2f} ms"
                        self.assertIn(f"cublas {text} ({us / e['best']['median_us']:.2f})", html)
                        matched += 1
            self.assertGreater(matched, 20)
            self.assertIn(">cublas</text>", h200_part)  # in the legend
            self.assertNotIn("cublas", lavapipe_part)
            # Without DEVICE= a file applies to every table of the page.
            p = subprocess.run([BIN, "report", LAVAPIPE, "--anchor", H200_CUBLAS, "-o", out], capture_output=True,
                               text=True, timeout=60)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(out) as f:
                # 128x768x3072 f32 nn, the one entry both have, with the committed anchor's time
                line = next(a for a in anchors if (a["M"], a["N"], a["K"], a["dtype"], a.get("layout", "nn"),
                                                   a.get("cold", False)) == (128, 768, 3072, "f32", "nn", False))
                self.assertIn(f"cublas {line['us']:.1f} us", f.read())

    def test_a_bad_anchor_file_is_exit_2_naming_its_line_and_nothing_is_written(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "report.html")
            for body, fragment in [('{"lib": "cublas", "dtype": "f32", "M": 8, "N": 8, "K": 8, "us": 1.5}\n{"lib": ',
                                    "not JSON"),
                                   ('\n{"lib": "cublas", "dtype": "f32", "M": 8, "N": 8, "K": 8, "us": -1}\n',
                                    'us: -1: must be greater than 0'),
                                   ('{"lib": "cublas", "dtype": "f32", "M": 0, "N": 8, "K": 8, "us": 1}\n',
                                    'M: 0: below the minimum 1'),
                                   ('{"lib": "x", "dtype": "f32", "layout": "nx", "M": 8, "N": 8, "K": 8, "us": 1}',
                                    'layout: "nx": not one of'),
                                   ('{"lib": "x", "dtype": "f64", "M": 8, "N": 8, "K": 8, "us": 1}', 'dtype: "f64": not one of'),
                                   ('{"lib": "", "dtype": "f16", "M": 8, "N": 8, "K": 8, "us": 1}', 'lib: "": does not match'),
                                   ('{"lib": "x", "dtype": "f16", "M": 8, "M": 9, "N": 8, "K": 8, "us": 1}',
                                    "duplicate key 'M'")]:
                bad = os.path.join(d, "anchor.jsonl")
                with open(bad, "w") as f:
                    f.write(body)
                p = subprocess.run([BIN, "report", LAVAPIPE, "--anchor", bad, "-o", out], capture_output=True,
                                   text=True, timeout=60)
                self.assertEqual(p.returncode, 2, p.stderr)
                line = 2 if body.startswith("\n") or "not JSON" == fragment else 1
                lines = [l for l in p.stderr.splitlines() if l.strip()]
                self.assertEqual(len(lines), 1, p.stderr)
                self.assertIn(f"{bad}:{line}:", lines[0])
                self.assertIn(fragment, lines[0])
                self.assertFalse(os.path.exists(out))
            p = subprocess.run([BIN, "report", LAVAPIPE, "--anchor", os.path.join(d, "missing.jsonl"), "-o", out],
                               capture_output=True, text=True, timeout=60)
            self.assertEqual(p.returncode, 5, p.stderr)
            self.assertFalse(os.path.exists(out))
            p = subprocess.run([BIN, "report", LAVAPIPE, "--anchor", "=" + bad, "-o", out], capture_output=True,
                               text=True, timeout=60)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn("DEVICE=FILE", p.stderr)

    def test_a_bad_table_is_exit_2_and_nothing_is_written(self):
        with tempfile.TemporaryDirectory() as d:
            bad = os.path.join(d, "bad.json")
            with open(bad, "w") as f:
                f.write('{"schema_version": 4,')
            out = os.path.join(d, "report.html")
            p = subprocess.run([BIN, "report", LAVAPIPE, bad, "-o", out], capture_output=True, text=True, timeout=60)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn(bad, p.stderr)
            self.assertFalse(os.path.exists(out))
            p = subprocess.run([BIN, "report", LAVAPIPE], capture_output=True, text=True, timeout=60)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn("--out", p.stderr)
            p = subprocess.run([BIN, "report", LAVAPIPE, "-o", d], capture_output=True, text=True, timeout=60)
            self.assertEqual(p.returncode, 5, p.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
