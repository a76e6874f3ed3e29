#!/usr/bin/env python3
"""Every config a tuning journal timed, per problem, fastest first: `list-configs.py TABLE.journal.jsonl`.
The last line of each (problem, config) counts (finals replace screening times). Used by the issue 18 scripts."""
import json
import sys

last = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["config"] and r["median_us"] > 0:
        p = json.loads(r["problem"])
        last[(f'{p["m"]}x{p["n"]}x{p["k"]} {p["layout"]}', r["config"])] = (r["median_us"], r["phase"], r["disposition"])
for (shape, name), (us, phase, disp) in sorted(last.items(), key=lambda kv: (kv[0][0], kv[1][0])):
    print(f"{shape:18s} {name:50s} {us:9.2f} us  {phase:8s} {disp}")
