#!/usr/bin/env python3
"""Every config a tuning journal timed, per problem, fastest first, with the driver's register count and local memory
(the journal's pipeline statistics): `configs.py JOURNAL...`. Problems with bias or an activation are marked `epi`.
Used by results/h200/f32/run.sh and compare.sh (issue 22)."""
import json
import sys

BASE = 2**36  # the NVIDIA driver reports "Local Memory Size" as 2^36 + the bytes used
last = {}
for path in sys.argv[1:]:
    for line in open(path):
        r = json.loads(line)
        if not r.get("config"):
            continue
        p = json.loads(r["problem"])
        epi = " epi" if p.get("bias") or p.get("activation", "none") != "none" else ""
        key = (f'{p["m"]}x{p["n"]}x{p["k"]} {p["layout"]}{epi}', r["config"])
        old = last.get(key, (0.0, None))
        us = r["median_us"] if r.get("median_us", 0) > 0 else old[0]
        last[key] = (us, r.get("pipeline_statistics") or old[1])
for (shape, name), (us, st) in sorted(last.items(), key=lambda kv: (kv[0][0], kv[1][0] or 1e18)):
    st = st or {}
    local = int(st.get("Local Memory Size", BASE) - BASE)
    print(f"{shape:18s} {name:48s} {us:10.2f} us  regs {int(st.get('Register Count', 0)):3d}  local {local}")
