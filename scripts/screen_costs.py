#!/usr/bin/env python3
"""Where a tune's screening time went, from the journals' cost_ms in a folder: per run, the configs screened, cut
and checked on the device; the configs under 200 ms (their pipeline built already) with their mean cost and rate; the time in
the configs at or over 200 ms (a build batch, then the warm-up after it); the mean verify time.
Usage: scripts/screen_costs.py DIR (a folder of tables with their .journal.jsonl beside them)"""
import glob, json, os, sys

for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.journal.jsonl"))):
    screened = [r for r in map(json.loads, open(path)) if r["phase"] == "screen"]
    quick = [r["cost_ms"]["total"] for r in screened if r["cost_ms"]["total"] < 200]
    slow = [r["cost_ms"]["total"] for r in screened if r["cost_ms"]["total"] >= 200]
    print(f"{os.path.basename(path).split('.')[0]:12s} screened {len(screened):3d}, "
          f"cut {sum(1 for r in screened if r.get('cut')):3d}, "
          f"device-checked {sum(1 for r in screened if r.get('device_checked')):3d} | "
          f"{len(quick):3d} under 200 ms: {sum(quick) / max(1, len(quick)):5.1f} ms a config "
          f"({1000 * len(quick) / max(1e-9, sum(quick)):5.1f} a second) | {len(slow):2d} at or over: "
          f"{sum(slow) / 1000:5.1f} s | verify {sum(r['cost_ms']['verify'] for r in screened) / len(screened):.1f} ms")
